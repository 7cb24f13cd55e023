/// One `undoctl` command: its name, its help, the options it accepts, how it
/// reads its arguments and what it does. Each lives in its own file under
/// `Commands/`.
protocol Command: Sendable {
    /// The word that selects it, e.g. `undo`.
    static var name: String { get }
    /// One line for the command list in `undoctl --help`.
    static var summary: String { get }
    /// The arguments after the command word, e.g. `[TARGET] [-n N]`.
    static var usage: String { get }
    /// What it does, in a few lines of help.
    static var discussion: String { get }
    /// The options it accepts besides the global ones.
    static var options: [OptionSpec] { get }
    /// Example command lines, each with what it does.
    static var examples: [Example] { get }
    /// Whether TARGET means something to it (help explains TARGET then).
    static var takesTarget: Bool { get }

    /// Reads the parsed command line; a usage error throws (exit 2).
    init(_ arguments: ParsedArguments) throws(CommandError)

    /// Does it.
    func run(_ context: CommandContext) throws(CommandError)
}

extension Command {
    static var takesTarget: Bool { false }
}
