/// A word as a shell reads it back: as it is where it is plain, else in
/// single quotes (a single quote inside written `'\\''`).
public enum ShellQuoting {
    /// `word`, quoted where it needs to be.
    public static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                Array("-_./=+,:@%".utf8).contains(byte)
            }
        }
        return plain ? word : singleQuoted(word)
    }

    /// `word` in single quotes, always.
    public static func singleQuoted(_ word: String) -> String {
        "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
