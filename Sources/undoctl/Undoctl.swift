import JSONText
import Loop
import ProcessEnvironment

/// The `undoctl` tool: finds the command word, parses the global and the
/// command's options, prints help or runs the command, and turns the
/// outcome into the exit status scripts rely on (0, 1, 2, 3).
enum Undoctl {
    /// undoctl's version (it speaks version 1 of the wire contract).
    static let version = "0.1.0"

    /// Every command, in the order help lists them.
    static let commands: [any Command.Type] = [
        StatusCommand.self, ListCommand.self, UndoCommand.self, RedoCommand.self, HistoryCommand.self,
        FocusCommand.self, ForgetCommand.self, WatchCommand.self, CompletionCommand.self, ShellInitCommand.self,
        HelpCommand.self,
    ]

    /// The options every command accepts, before or after the command word.
    static let globalOptions: [OptionSpec] = [
        OptionSpec("address", ["--address"], value: "ADDR",
                   help: "use the D-Bus bus at ADDR instead of the session bus ($DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus)"),
        OptionSpec("json", ["--json"], help: "print JSON instead of text (see man undoctl)"),
        OptionSpec("help", ["-h", "--help"], help: "print help and exit"),
        OptionSpec("version", ["--version"], help: "print undoctl's version and exit"),
    ]

    /// Runs undoctl with `arguments` (without the program name); returns the
    /// exit status.
    static func main(_ arguments: [String]) -> Int32 {
        do {
            try run(arguments)
            return ExitCode.success.rawValue
        } catch {
            report(error)
            // --json promises JSON on standard output: a command that failed
            // before printing its object prints the error as one.
            if arguments.prefix(while: { $0 != "--" }).contains("--json"), !Output.wroteResult {
                Output.line(JSONValue.object(["error": error.json]).text)
            }
            return error.code.rawValue
        }
    }

    /// The command named `name`, if there is one.
    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.name == name }
    }

    private static func run(_ arguments: [String]) throws(CommandError) {
        var rest = arguments
        var command: any Command.Type = StatusCommand.self
        var named = false
        if let index = commandIndex(in: arguments) {
            let word = rest.remove(at: index)
            guard let found = Self.command(named: word) else { throw unknownCommand(word) }
            command = found
            named = true
        }
        // Help wins over any other mistake on the line, as people add --help
        // to a command line that did not work.
        let beforeDoubleDash = rest.prefix { $0 != "--" }
        if beforeDoubleDash.contains("--help") || beforeDoubleDash.contains("-h") {
            Output.line(named ? Help.text(for: command) : Help.overview)
            return
        }
        let parsed = try ArgumentParser.parse(rest, options: globalOptions + command.options,
                                              command: named ? command.name : nil)
        if parsed.has("version") {
            Output.line("undoctl \(version)")
            return
        }
        if let address = parsed.value("address"), address.isEmpty {
            throw .usage("--address needs a bus address, such as unix:path=/run/user/1000/bus",
                         command: named ? command.name : nil)
        }
        let context = CommandContext(json: parsed.has("json"), address: parsed.value("address"),
                                     environment: Environment.current())
        try command.init(parsed).run(context)
    }

    /// Where the command word is: the first argument that is neither an
    /// option nor the value of `--address`.
    private static func commandIndex(in arguments: [String]) -> Int? {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { return index + 1 < arguments.count ? index + 1 : nil }
            if argument == "--address" {
                index += 2
                continue
            }
            if argument.hasPrefix("-"), argument != "-" {
                index += 1
                continue
            }
            return index
        }
        return nil
    }

    private static func unknownCommand(_ word: String) -> CommandError {
        let names = commands.map { $0.name }
        // Close: one slip in a short word, two in a longer one (so "bogus"
        // does not suggest "focus", while "lsit" suggests "list").
        let close = names.filter { name in
            distance(name, word) <= (word.count < 6 ? 1 : 2) || (name.hasPrefix(word) && !word.isEmpty)
        }
        let hint = close.isEmpty ? "" : " (did you mean \(close.joined(separator: " or ")))"
        return .usage("unknown command \(Format.quoted(word))\(hint); the commands are "
            + names.joined(separator: ", "))
    }

    /// The edit distance between two short words, a swap of two neighbouring
    /// letters counting as one edit ("lsit" is one from "list").
    private static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var rows = [Array(0...b.count)]
        for i in 1...max(1, a.count) where !a.isEmpty {
            var row = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], rows[i - 2][j - 2] + 1)
                }
            }
            rows.append(row)
        }
        return rows[a.count][b.count]
    }

    /// Prints the sentence of `error` on stderr, with a pointer to help
    /// after a usage error.
    private static func report(_ error: CommandError) {
        Output.error("undoctl: " + error.message)
        if error.code == .usage {
            let help = error.command.map { "undoctl \($0) --help" } ?? "undoctl --help"
            Output.error("Try '\(help)' for more information.")
        }
    }
}
