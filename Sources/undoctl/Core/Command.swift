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
    /// Whether it stays out of `undoctl --help`'s list.
    static var isHidden: Bool { get }

    /// Reads the parsed command line; a usage error throws (exit 2).
    init(_ arguments: ParsedArguments) throws(CommandError)

    /// Does it.
    func run(_ context: CommandContext) throws(CommandError)
}

extension Command {
    static var takesTarget: Bool { false }
    static var isHidden: Bool { false }
}

/// An example command line and what it does, for help and the man page.
struct Example: Sendable {
    /// The command line.
    var command: String
    /// What it does.
    var meaning: String

    /// Makes an example.
    init(_ command: String, _ meaning: String) {
        self.command = command
        self.meaning = meaning
    }
}

extension ParsedArguments {
    /// The one optional TARGET, or nil; more positional arguments than that
    /// are a usage error of `command`.
    func optionalTarget(of command: String) throws(CommandError) -> String? {
        guard positionals.count <= 1 else {
            throw .usage("\(command) takes at most one TARGET, got \(positionals.count): "
                + positionals.map(Format.quoted).joined(separator: " "), command: command)
        }
        if let target = positionals.first, target.isEmpty {
            throw .usage("TARGET is empty", command: command)
        }
        return positionals.first
    }

    /// The one required TARGET of `command`.
    func requiredTarget(of command: String) throws(CommandError) -> String {
        guard let target = try optionalTarget(of: command) else {
            throw .usage("\(command) needs a TARGET (an app id, app_id:document, a stack number or path)",
                         command: command)
        }
        return target
    }

    /// Refuses any positional argument (`command` takes none).
    func noPositionals(of command: String) throws(CommandError) {
        guard positionals.isEmpty else {
            throw .usage("\(command) takes no arguments, got \(Format.quoted(positionals[0]))", command: command)
        }
    }
}
