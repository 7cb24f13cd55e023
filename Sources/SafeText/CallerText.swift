/// Text a caller sent, made safe to show in an error's sentence or a log
/// line: control characters (line and paragraph separators included) and
/// quotes are escaped, and at most 256 characters are kept, so that no
/// caller can write lines of its own into the log or echo a megabyte back.
public enum CallerText {
    /// How many characters of a caller's text are shown at most.
    public static let maximumCharacters = 256

    /// `text` escaped and cut, in quotes: `“text”`.
    public static func quoted(_ text: String) -> String {
        "“" + escaped(text) + "”"
    }

    /// `text` escaped and cut, without quotes; `…` marks a cut.
    public static func escaped(_ text: String) -> String {
        var out = ""
        for (index, scalar) in text.unicodeScalars.enumerated() {
            if index == maximumCharacters {
                out += "…"
                break
            }
            let unsafe = scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}"
                || scalar == "“" || scalar == "”"
            out += unsafe ? scalar.escaped(asASCII: true) : String(scalar)
        }
        return out
    }
}
