import FileUndo
import ProcessEnvironment

/// `undod-files --agent`: the shell's agent, which the bus starts as
/// `org.undod.Files1`. The commands themselves run in `undod-files-run`.
enum FilesMain {
    static let version = "0.1.0"

    static let help = """
    undod-files — the shell's undo: the agent that keeps each shell's stack in undod

    USAGE
      undod-files --agent [--address ADDR]   serve org.undod.Files1 (the bus starts it)

    The shell functions `undoctl shell-init bash|zsh|fish` prints run rm, mv,
    cp, mkdir, rmdir, ln, touch and chmod through undod-files-run, which
    records what each command line changed here; this agent pushes it as
    one group on that shell's stack in undod, and undoes and redoes it when
    undod asks (`undoctl undo` in that shell, or the global key with its
    terminal in front). rm moves to the FreeDesktop trash; what mv or cp
    replaces goes there first.

    EXIT STATUS
      0 the bus went away; 2 a usage error; 1 the agent could not start.
    """

    static func main(_ arguments: [String]) -> Int32 {
        let environment = Environment.current()
        switch arguments.first {
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
        StandardTerminal.write(2, "undod-files: usage: undod-files --agent [--address ADDR]\n"
                                + "Try 'undod-files --help' for more information.\n")
        return 2
    }
}
