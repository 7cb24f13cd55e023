import FileUndo
import ProcessEnvironment

/// `undod-files-run`: one command line run for a shell, what the functions
/// `undoctl shell-init` prints call (`--shell PID COMMAND ARGUMENTS…`).
/// Small on purpose: it starts for every command typed, so it links
/// neither Foundation nor UndoKit; the agent (`undod-files`) does the
/// rest.
enum RunMain {
    static let version = "0.1.0"

    static let help = """
    undod-files-run — one rm, mv, cp, mkdir, rmdir, ln, touch or chmod of a shell, undoable

    USAGE
      undod-files-run --shell PID COMMAND [ARGUMENT…]

    Runs COMMAND as coreutils would, in this directory and on this terminal,
    then records what it changed with the agent (undod-files, started by
    the bus) as one group on shell PID's stack, which `undoctl undo` in that
    shell (or the global key with its terminal in front) undoes. An option
    it does not know runs the real command, with one line saying so. Shells
    call it through the functions `undoctl shell-init bash|zsh|fish` prints.

    EXIT STATUS
      COMMAND's own (as coreutils'); 2 a usage error.
    """

    static func main(_ arguments: [String]) -> Int32 {
        switch arguments.first {
        case "--shell":
            guard arguments.count >= 3, let pid = UInt32(arguments[1]) else { return usage() }
            return FileRunner.run(shell: pid, name: arguments[2], arguments: Array(arguments.dropFirst(3)),
                                  environment: Environment.current())
        case "--help", "-h":
            StandardTerminal.write(1, help + "\n")
            return 0
        case "--version":
            StandardTerminal.write(1, "undod-files-run \(version)\n")
            return 0
        default:
            return usage()
        }
    }

    private static func usage() -> Int32 {
        StandardTerminal.write(2, "undod-files-run: usage: undod-files-run --shell PID COMMAND [ARGUMENT…]\n"
                                + "Try 'undod-files-run --help' for more information.\n")
        return 2
    }
}
