/// `undoctl completion bash|zsh|fish`: prints a completion script.
struct CompletionCommand: Command {
    static let name = "completion"
    static let summary = "print a completion script for bash, zsh or fish"
    static let usage = "bash|zsh|fish"
    static let discussion = """
        Prints a script that teaches the shell undoctl's commands, options and \
        TARGETs (the TARGETs are asked of undod as you type, with `undoctl list -q`). \
        Load it from the shell's start-up file, or install it where the shell \
        looks for completions.
        """
    static let options: [OptionSpec] = []
    static let examples = [
        Example("source <(undoctl completion bash)", "in ~/.bashrc"),
        Example("undoctl completion zsh > \"${fpath[1]}/_undoctl\"", "for zsh, then start a new shell"),
        Example("undoctl completion fish > ~/.config/fish/completions/undoctl.fish", "for fish"),
    ]

    /// The shells there are scripts for.
    static let shells = ["bash", "zsh", "fish"]

    /// The shell asked for.
    let shell: String

    init(_ arguments: ParsedArguments) throws(CommandError) {
        shell = try Self.shell(in: arguments, for: Self.name)
    }

    /// The one shell `command` (`completion`, `shell-init`) was given.
    static func shell(in arguments: ParsedArguments, for command: String) throws(CommandError) -> String {
        guard arguments.positionals.count == 1, let shell = arguments.positionals.first else {
            throw .usage("\(command) needs one shell: bash, zsh or fish", command: command)
        }
        guard shells.contains(shell) else {
            throw .usage("there is no \(command) for \(Format.quoted(shell)); choose bash, zsh or fish", command: command)
        }
        return shell
    }

    func run(_ context: CommandContext) throws(CommandError) {
        let grammar = CompletionGrammar()
        switch shell {
        case "bash": Output.line(BashCompletion.script(grammar))
        case "zsh": Output.line(ZshCompletion.script(grammar))
        default: Output.line(FishCompletion.script(grammar))
        }
    }
}
