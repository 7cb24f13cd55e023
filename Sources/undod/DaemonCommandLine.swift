#if canImport(Glibc)
import Glibc
#endif
import Loop
import ProcessEnvironment
import Undo1
import Undo1Wire
import UndoDaemon

/// undod's command line: `undod [--address ADDR] [--config FILE]
/// [--state-dir DIR] [--check-config] [--version] [--verbose]`.
enum DaemonCommandLine {
    static let help = """
        undod — system-wide undo and redo for the Linux desktop

        USAGE
          undod [--address ADDR] [--config FILE] [--state-dir DIR] [--verbose]
          undod --check-config [FILE | --config FILE]
          undod --version | --introspect | --help

        undod keeps one undo stack per application (and per document) on the
        D-Bus session bus as org.undod.Undo1. Applications push named groups of
        undo/redo payloads; when the user asks for undo (the global key,
        `undoctl undo`, SIGUSR1) undod calls the focused application back to
        apply them.
        It runs in the foreground and logs to stderr.

        OPTIONS
          --address ADDR   use the bus at ADDR instead of $DBUS_SESSION_BUS_ADDRESS
                           (else $XDG_RUNTIME_DIR/bus where that socket exists);
                           a Unix socket: unix:path=… or unix:abstract=…
          --config FILE    read FILE instead of $XDG_CONFIG_HOME/undod/undod.conf
                           (then /etc/xdg/undod/undod.conf, then built-in defaults)
          --state-dir DIR  keep history in DIR instead of $XDG_STATE_HOME/undod
          --check-config   validate the config (FILE, or --config's, or the one undod
                           would read), print every problem in it, and exit
          --verbose        log routine events too (every undo and redo, who asked)
          --introspect     print the D-Bus interfaces as introspection XML and exit
          --version        print the version and exit
          --help           print this help and exit

        THE GLOBAL KEYS
          Ctrl+Alt+z undoes and Ctrl+Alt+Shift+z redoes in the application in
          front (hotkey.undo, hotkey.redo in undod.conf). On X11 ($DISPLAY) undod
          grabs them and follows the active window; on Wayland ($WAYLAND_DISPLAY)
          it asks the GlobalShortcuts portal, and where none answers, bind
          `undoctl undo` and `undoctl redo` in the compositor. After each undo
          a notification offers Redo (notify.enabled, notify.confirm).

        SIGNALS
          SIGUSR1 undo on the focused stack    SIGUSR2 redo on the focused stack
          SIGHUP  reload the config (a bad file is reported, the old one kept)
          SIGTERM, SIGINT  stop cleanly

        EXIT STATUS
          0 stopped cleanly; 1 could not run (bad config, no bus, another undod
          owns the name); 2 bad command line.

        EXAMPLES
          undod --verbose
          undod --check-config --config ~/.config/undod/undod.conf
          kill -USR1 "$(pidof undod)"     # undo in the focused application
        """

    static func main(_ arguments: [String]) -> Int32 {
        let environment = Environment.current()
        var options = Daemon.Options()
        var checkOnly = false
        var index = 0
        func value(_ flag: String) -> String? {
            index += 1
            guard index < arguments.count else {
                printError("undod: \(flag) needs a value; see undod --help.")
                return nil
            }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            let (flag, inline) = split(argument)
            switch flag {
            case "--address":
                guard let v = inline ?? value(flag) else { return 2 }
                options.address = v
            case "--config":
                guard let v = inline ?? value(flag) else { return 2 }
                options.configPath = v
            case "--state-dir":
                guard let v = inline ?? value(flag) else { return 2 }
                options.stateDirectory = v
            case "--check-config":
                checkOnly = true
                // `--check-config FILE` as well as `--config FILE --check-config`.
                if let file = inline {
                    options.configPath = file
                } else if index + 1 < arguments.count, !arguments[index + 1].hasPrefix("-") {
                    index += 1
                    options.configPath = arguments[index]
                }
            case "--verbose", "-v": options.verbose = true
            case "--version":
                print("undod \(Daemon.version)")
                return 0
            case "--introspect":
                print(Undo1Interfaces.document, terminator: "")
                return 0
            case "--help", "-h":
                print(help)
                return 0
            default:
                printError("undod: unknown option “\(argument)”; see undod --help.")
                return 2
            }
            index += 1
        }
        if checkOnly {
            let loader = ConfigLoader(explicitPath: options.configPath, environment: environment)
            let file = loader.resolvedPath() ?? "built-in defaults"
            do {
                let outcome = try loader.load()
                for warning in outcome.warnings { printError("undod: warning: \(warning)") }
                let count = outcome.warnings.count
                print(count == 0 ? "\(file): the config is valid."
                      : "\(file): the config is valid, but see the \(count == 1 ? "warning" : "\(count) warnings") "
                        + "above: what it names is ignored.")
                return 0
            } catch {
                for warning in error.warnings { printError("undod: warning: \(warning)") }
                for each in error.all { printError("undod: error: \(each)") }
                let count = error.all.count
                printError("undod: \(file) is not a valid config: \(count == 1 ? "1 error" : "\(count) errors").")
                return 1
            }
        }
        return Daemon(options: options, environment: environment).run()
    }

    /// `--flag=value` into its parts.
    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    static func printError(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
}
