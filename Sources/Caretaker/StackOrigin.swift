/// Who made a stack: the program behind the connection that registered it,
/// as undod read it from the bus's credentials and `/proc` (see the
/// Trust section of `Docs/PROTOCOL.md`). A detached stack is adopted only
/// by a caller of the same origin, so that no other program ever receives
/// its payloads. Two origins are the same when their `key`s are equal.
package struct StackOrigin: Sendable, Equatable {
    /// What kind of program it is.
    package enum Kind: String, Sendable {
        /// A Flatpak app: `program` is its application id.
        case flatpak
        /// A Snap: `program` is its AppArmor label.
        case snap
        /// A program outside any sandbox: `program` is its executable's
        /// path, and `script` the script it runs when it is an interpreter.
        case executable
    }

    /// What kind of program it is.
    package let kind: Kind
    /// The sandbox's id, or the executable's path.
    package let program: String
    /// The executable's file (`device:inode`), `""` in a sandbox.
    package let programFile: String
    /// The script an interpreter runs (its path, or `-c`-style inline
    /// code as `""` with `inline` set), `""` for other programs.
    package let script: String
    /// The script's file (`device:inode`), `""` where it has none.
    package let scriptFile: String
    /// The origin as the store keeps it: its fields, `%`-escaped and joined
    /// by spaces, so that no path can pass for another field. Made once:
    /// the store writes it with the stack's row at every commit.
    package let key: String

    /// An origin.
    package init(kind: Kind, program: String, programFile: String = "", script: String = "", scriptFile: String = "") {
        self.kind = kind
        self.program = program
        self.programFile = programFile
        self.script = script
        self.scriptFile = scriptFile
        key = [kind.rawValue, program, programFile, script, scriptFile].map(Self.escaped).joined(separator: " ")
    }

    /// The origin a stored `key` names; nil for `""` (a stack stored before
    /// undod kept origins) or a key no undod writes.
    package init?(key: String) {
        let fields = key.split(separator: " ", omittingEmptySubsequences: false).map { Self.unescaped(String($0)) }
        guard fields.count == 5, let kind = Kind(rawValue: fields[0]), !fields[1].isEmpty else { return nil }
        self.init(kind: kind, program: fields[1], programFile: fields[2], script: fields[3], scriptFile: fields[4])
    }

    /// The origin for a sentence, without file numbers: `the Flatpak app
    /// org.gnome.TextEditor`, `/usr/bin/python3 running /home/ann/notes.py`.
    package var description: String {
        switch kind {
        case .flatpak: return "the Flatpak app \(program)"
        case .snap: return "the Snap \(program)"
        case .executable: return script.isEmpty ? program : "\(program) running \(script)"
        }
    }

    private static func escaped(_ field: String) -> String {
        guard field.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: " ") }) else { return field }
        var out = ""
        for scalar in field.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case " ": out += "%20"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func unescaped(_ field: String) -> String {
        var out = "", rest = Substring(field)
        while let percent = rest.firstIndex(of: "%") {
            out += rest[..<percent]
            let code = rest[percent...].prefix(3)
            out += code == "%20" ? " " : code == "%25" ? "%" : String(code)
            rest = rest[percent...].dropFirst(code.count)
        }
        return out + rest
    }
}
