/// The help texts: `undoctl --help` and `undoctl COMMAND --help`, built from
/// each command's own summary, usage, options and examples, wrapped to fit
/// an 80-column terminal.
enum Help {
    /// The width help is wrapped to.
    static let width = 79

    /// What TARGET means, for every command that takes one.
    static let targetText = """
        A stack: an app id (org.example.Editor, that app's stack whatever its \
        document, when it has one), app_id:document (org.example.Editor:notes.txt; \
        org.example.Editor: is the app's stack with no document, and always means \
        an app id), a stack number (3, as `undoctl list` shows) or object path \
        (/org/undod/Undo1/stack/3). Left out: the focused stack. A TARGET that \
        matches no stack, or several, is an error (exit 1) that lists them.
        """

    /// What the exit statuses mean.
    static let exitStatusRows: [(String, String)] = [
        ("0", "done"),
        ("1", "undod refused (nothing to undo, no focused stack, TARGET unknown or ambiguous, …); "
            + "its reason is on stderr"),
        ("2", "usage error"),
        ("3", "undod cannot be reached: no bus, or undod is not running on it"),
    ]

    /// `undoctl --help`.
    static var overview: String {
        var out = ["undoctl — the command line of undod, the system-wide undo daemon", ""]
        out += ["USAGE", "  undoctl [--address ADDR] [--json] [COMMAND] [ARGUMENTS…]", ""]
        out += wrap("Undo and redo in any application that uses undod, read undo histories and follow "
            + "undo activity. Without a COMMAND, undoctl runs `status`.", indent: 2)
        out += ["", "COMMANDS"]
        out += twoColumns(Undoctl.commands.map { (($0.name + " " + $0.usage).trimmed, $0.summary) })
        out += ["", "TARGET"] + wrap(targetText, indent: 2)
        out += ["", "OPTIONS"] + twoColumns(Undoctl.globalOptions.map { ($0.synopsis, $0.help) })
        out += ["", "EXIT STATUS"] + twoColumns(exitStatusRows)
        out += ["", "EXAMPLES"] + examples([
            Example("undoctl", "show what undo and redo would do now, in the focused application"),
            Example("undoctl undo", "undo the last action of the focused application"),
            Example("undoctl undo org.example.Editor: -n 3", "undo the last 3 actions of one application"),
            Example("undoctl history org.example.Editor:", "read its history, newest first"),
            Example("undoctl watch", "follow undo activity live (Ctrl-C stops)"),
            Example("undoctl --json list", "every stack as JSON, for scripts"),
        ])
        out += [""] + wrap("Run `undoctl COMMAND --help` for more about a command, and `man undoctl` for "
            + "the JSON schema and everything else.", indent: 0)
        return out.joined(separator: "\n")
    }

    /// `undoctl COMMAND --help`.
    static func text(for command: any Command.Type) -> String {
        var out = ["undoctl \(command.name) — \(command.summary)", ""]
        out += ["USAGE", "  " + ("undoctl [--address ADDR] [--json] \(command.name) \(command.usage)").trimmed, ""]
        out += wrap(command.discussion, indent: 2)
        if command.takesTarget {
            out += ["", "TARGET"] + wrap(targetText, indent: 2)
        }
        let options = command.options + Undoctl.globalOptions.filter { $0.id != "version" }
        out += ["", "OPTIONS"] + twoColumns(options.map { ($0.synopsis, $0.help) })
        out += ["", "EXAMPLES"] + examples(command.examples)
        return out.joined(separator: "\n")
    }

    /// Example lines: the command, and under it what it does.
    static func examples(_ examples: [Example]) -> [String] {
        examples.flatMap { ["  " + $0.command] + wrap($0.meaning, indent: 6) }
    }

    /// Terms and their explanations side by side; a long term gets its
    /// explanation on the next line.
    static func twoColumns(_ rows: [(String, String)]) -> [String] {
        let termWidth = min(26, (rows.map(\.0.count).max() ?? 0))
        var out: [String] = []
        for (term, text) in rows {
            let indent = 2 + termWidth + 2
            var lines = wrap(text, indent: indent)
            if term.count <= termWidth, !lines.isEmpty {
                lines[0] = "  " + Format.padded(term, termWidth) + "  " + lines[0].dropFirst(indent)
                out += lines
            } else {
                out.append("  " + term)
                out += lines
            }
        }
        return out
    }

    /// `text` wrapped at word boundaries to `width`, each line indented.
    /// Blank lines in `text` separate paragraphs.
    static func wrap(_ text: String, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        var out: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                if !line.isEmpty, pad.count + line.count + 1 + word.count > width {
                    out.append(pad + line)
                    line = ""
                }
                line += (line.isEmpty ? "" : " ") + word
            }
            out.append(line.isEmpty ? "" : pad + line)
        }
        return out
    }
}

extension String {
    /// The string without spaces at either end.
    var trimmed: String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
