/// `undoctl help [COMMAND]`: the same as `--help`.
struct HelpCommand: Command {
    static let name = "help"
    static let summary = "print help for undoctl or one of its commands"
    static let usage = "[COMMAND]"
    static let discussion = "Prints undoctl's help, or COMMAND's (the same as `undoctl COMMAND --help`)."
    static let options: [OptionSpec] = []
    static let examples = [Example("undoctl help undo", "how to use undo")]

    /// The command asked about, or nil for undoctl.
    let command: (any Command.Type)?

    init(_ arguments: ParsedArguments) throws(CommandError) {
        guard arguments.positionals.count <= 1 else {
            throw .usage("help takes at most one COMMAND", command: Self.name)
        }
        guard let word = arguments.positionals.first else {
            command = nil
            return
        }
        guard let found = Undoctl.command(named: word) else {
            throw .usage("there is no command \(Format.quoted(word))", command: Self.name)
        }
        command = found
    }

    func run(_ context: CommandContext) throws(CommandError) {
        Output.line(command.map(Help.text(for:)) ?? Help.overview)
    }
}
