import ProcessEnvironment

/// `undod-files`: the agent (`--agent`) or one command line run for a shell
/// (`--shell PID COMMAND ARGUMENTS…`, what `undoctl shell-init`'s functions
/// call).
enum FilesMain {
    static let version = "0.1.0"

    static let help = """
    undod-files — the shell's undo: rm, mv, mkdir, rmdir and touch that undoctl undo takes back

    USAGE
      undod-files --shell PID COMMAND [ARGUMENT…]   run COMMAND (rm, mv, mkdir, rmdir, touch) for shell PID
      undod-files --agent [--address ADDR]          serve org.undod.Files1 (the bus starts it)

    Shells call it through the functions `undoctl shell-init bash|zsh|fish`
    prints; `command rm …` and `\\rm …` run the real one. rm moves to the
    FreeDesktop trash; what mv replaces goes there first; each command line
    is one group on the shell's stack in undod, which `undoctl undo` in that
    shell (or the global key with its terminal in front) undoes.

    EXIT STATUS
      COMMAND's own (as coreutils'); 2 a usage error; 1 the agent could not start.
    """

    static func main(_ arguments: [String]) -> Int32 {
        let environment = Environment.current()
        switch arguments.first {
        case "--shell":
            guard arguments.count >= 3, let pid = UInt32(arguments[1]) else { return usage() }
            return FileRunner.run(shell: pid, name: arguments[2], arguments: Array(arguments.dropFirst(3)),
                                  environment: environment)
        case "--agent":
            var address: String?
            if arguments.count == 3, arguments[1] == "--address" { address = arguments[2] }
            else if arguments.count != 1 { return usage() }
            do throws(FilesError) {
                return try FilesAgent(address: address, environment: environment).run()
            } catch {
                StandardTerminal.write(2, error.message + "\n")
                return 1
            }
        case "--help", "-h":
            StandardTerminal.write(1, help + "\n")
            return 0
        case "--version":
            StandardTerminal.write(1, "undod-files \(version)\n")
            return 0
        default:
            return usage()
        }
    }

    private static func usage() -> Int32 {
        StandardTerminal.write(2, "undod-files: usage: undod-files --shell PID COMMAND [ARGUMENT…] | --agent [--address ADDR]\n"
                                + "Try 'undod-files --help' for more information.\n")
        return 2
    }
}
