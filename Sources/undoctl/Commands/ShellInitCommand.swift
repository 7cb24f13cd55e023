import FileUndo
import SystemCalls

/// `undoctl shell-init bash|zsh|fish`: prints the functions that make `rm`,
/// `mv`, `cp`, `mkdir`, `rmdir`, `ln`, `touch` and `chmod` in that shell
/// undoable (through undod-files-run and the agent, undod-files).
struct ShellInitCommand: Command {
    static let name = "shell-init"
    static let summary = "print the functions that make rm, mv, cp, ln, chmod and others undoable in a shell"
    static let usage = "bash|zsh|fish"
    static let discussion = """
        Prints shell functions named rm, mv, cp, mkdir, rmdir, ln, touch and chmod that \
        run them through undod-files-run: rm moves to the trash, what mv or cp replaces goes \
        there first, \
        and each command line becomes one group on this shell's own stack, \
        which `undoctl undo` typed in this shell undoes (and the global key, \
        with the shell's terminal in front). An option undod-files-run does not \
        know runs the real command, with one line saying it cannot be undone; \
        `command rm …` and `\\rm …` always run the real one. Load it from the \
        shell's start-up file; nothing changes without it.
        """
    static let options: [OptionSpec] = []
    static let examples = [
        Example("eval \"$(undoctl shell-init bash)\"", "in ~/.bashrc"),
        Example("eval \"$(undoctl shell-init zsh)\"", "in ~/.zshrc"),
        Example("undoctl shell-init fish | source", "in ~/.config/fish/config.fish"),
    ]

    /// The commands the functions cover.
    static let commands = ["rm", "mv", "cp", "mkdir", "rmdir", "ln", "touch", "chmod"]

    /// The shell asked for.
    let shell: String

    init(_ arguments: ParsedArguments) throws(CommandError) {
        shell = try CompletionCommand.shell(in: arguments, for: Self.name)
    }

    func run(_ context: CommandContext) throws(CommandError) {
        Output.line(Self.script(shell, runner: Self.runnerPath()))
    }

    /// The functions for `shell`, calling undod-files-run at `runner`.
    static func script(_ shell: String, runner: String) -> String {
        let quoted = ShellQuoting.singleQuoted(runner)
        if shell == "fish" {
            return (["# undod: the shell's undo (undoctl shell-init fish)", "set -gx UNDOD_SHELL_PID $fish_pid"]
                + commands.map { "function \($0) --wraps \($0); \(quoted) --shell $fish_pid \($0) $argv; end" })
                .joined(separator: "\n")
        }
        // `function NAME` rather than `NAME()`: an alias of the name (rm='rm -i') is not expanded there.
        return (["# undod: the shell's undo (undoctl shell-init \(shell))", "export UNDOD_SHELL_PID=$$"]
            + commands.map { "function \($0) { \(quoted) --shell $$ \($0) \"$@\"; }" })
            .joined(separator: "\n")
    }

    /// undod-files-run beside this undoctl where it is there (an install,
    /// a build tree), else the name, for PATH to find.
    static func runnerPath() -> String {
        guard case .success(let own) = SystemCall.readLink("/proc/self/exe"),
              let slash = own.lastIndex(of: "/") else { return "undod-files-run" }
        let beside = String(own[..<slash]) + "/undod-files-run"
        guard case .success = SystemCall.stat(beside) else { return "undod-files-run" }
        return beside
    }
}
