/// What the completion scripts know of undoctl, read from the commands
/// themselves so that the scripts never fall behind: the commands, their
/// options, which take a TARGET and which take fixed words.
struct CompletionGrammar {
    /// One command as a shell sees it.
    struct Entry {
        /// The command word.
        var name: String
        /// Its one-line summary.
        var summary: String
        /// Its own options.
        var options: [OptionSpec]
        /// Whether it takes a TARGET (completed from `undoctl list -q`).
        var takesTarget: Bool
        /// The fixed words it takes instead (shells, command names).
        var words: [String]
    }

    /// Every command.
    let commands: [Entry]
    /// The options every command accepts.
    let globalOptions: [OptionSpec]

    /// The grammar of this build of undoctl.
    init() {
        commands = Undoctl.commands.map { command in
            var words: [String] = []
            if command.name == CompletionCommand.name || command.name == ShellInitCommand.name { words = CompletionCommand.shells }
            if command.name == HelpCommand.name { words = Undoctl.commands.map { $0.name } }
            return Entry(name: command.name, summary: command.summary, options: command.options,
                         takesTarget: command.takesTarget, words: words)
        }
        globalOptions = Undoctl.globalOptions
    }

    /// Every spelling of every option that takes a value (its value is
    /// never the command word, and is not completed).
    var valueOptionNames: [String] {
        let all = globalOptions + commands.flatMap(\.options)
        var seen: [String] = []
        for name in all.filter({ $0.valueName != nil }).flatMap(\.names) where !seen.contains(name) {
            seen.append(name)
        }
        return seen
    }

    /// The option spellings that take a value and are global (only
    /// `--address`): they may come before the command word.
    var globalValueOptionNames: [String] {
        globalOptions.filter { $0.valueName != nil }.flatMap(\.names)
    }

    /// `text` inside single quotes for sh-like shells (bash, zsh).
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }

    /// `text` inside single quotes for fish.
    static func fishQuoted(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}
