/// A command line of `rm`, `mv`, `cp`, `mkdir`, `rmdir`, `ln`, `touch` or
/// `chmod` as undod-files reads it: one it
/// runs itself, recording what it changes, or one it leaves to the real
/// command (an option it does not know), with the reason.
public enum FileCommand {
    /// One undod-files runs and can undo.
    case undoable(any UndoableCommand)
    /// One the real command must run, as it is (`why`: the line that says
    /// it cannot be undone).
    case asItIs(why: String)

    /// The command `name` with `arguments`; `asItIs` for a name undod-files
    /// does not run.
    public static func reading(_ name: String, _ arguments: [String]) -> FileCommand {
        let reader: ([String]) -> (any UndoableCommand)? = switch name {
        case "rm": { RemoveCommand($0) }
        case "mv": { MoveCommand($0) }
        case "mkdir": { MakeDirectoryCommand($0) }
        case "rmdir": { RemoveDirectoryCommand($0) }
        case "touch": { TouchCommand($0) }
        case "cp": { CopyCommand($0) }
        case "ln": { LinkCommand($0) }
        case "chmod": { ChangeModeCommand($0) }
        default: { _ in nil }
        }
        guard let command = reader(arguments) else {
            return .asItIs(why: "undod-files does not run \(name)")
        }
        if let unknown = command.unknownOption {
            return .asItIs(why: "\(name) \(unknown) cannot be undone: running \(name) as it is")
        }
        return .undoable(command)
    }
}

/// A command undod-files runs itself.
public protocol UndoableCommand {
    /// The first option it does not know, if any (then it is not run).
    var unknownOption: String? { get }
    /// Runs it in `context`: what coreutils prints, and what changed.
    func run(in context: CommandContext) -> CommandOutcome
}

/// coreutils' answer to a command line that lacks `what` (`operand`,
/// `file operand`): two lines on standard error, and status 1.
func missing(_ what: String, of command: String, on terminal: any CommandTerminal) -> CommandOutcome {
    terminal.warn("\(command): missing \(what)")
    terminal.warn("Try '\(command) --help' for more information.")
    return CommandOutcome(status: 1)
}

/// A file name in a message, quoted as coreutils quotes it: `'a b'`, and
/// `"it's"` for a name holding a single quote.
func quoted(_ name: String) -> String {
    if name.contains("'") && !name.contains("\"") { return "\"\(name)\"" }
    return ShellQuoting.singleQuoted(name)
}
