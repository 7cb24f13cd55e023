/// One option a command (or undoctl itself) accepts.
struct OptionSpec: Sendable {
    /// How the parsed result names it, e.g. `count`.
    var id: String
    /// Its spellings, e.g. `["-n", "--count"]`.
    var names: [String]
    /// The placeholder of its value (`N`), or nil for a flag.
    var valueName: String?
    /// One line of help.
    var help: String

    /// Makes an option.
    init(_ id: String, _ names: [String], value valueName: String? = nil, help: String) {
        self.id = id
        self.names = names
        self.valueName = valueName
        self.help = help
    }

    /// How help shows it: `-n, --count N`.
    var synopsis: String {
        names.joined(separator: ", ") + (valueName.map { " " + $0 } ?? "")
    }
}

/// A command line split into options and positional arguments.
struct ParsedArguments: Sendable {
    /// The arguments that are not options, in order.
    var positionals: [String] = []
    /// The value of each option that takes one (the last one given wins).
    var values: [String: String] = [:]
    /// The flags given.
    var flags: Set<String> = []

    /// Whether the flag `id` was given.
    func has(_ id: String) -> Bool { flags.contains(id) }

    /// The value given to option `id`, if any.
    func value(_ id: String) -> String? { values[id] }
}

/// The small parser every command shares: options may come before, after
/// or between positional arguments; `--name=value`, `--name value`, `-nVALUE`
/// and `-n VALUE` all work; `--` ends the options.
enum ArgumentParser {
    /// Parses `arguments` against `options`; `command` names the help that a
    /// usage error points at.
    static func parse(_ arguments: [String], options: [OptionSpec],
                      command: String?) throws(CommandError) -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let (name, inline) = split(argument)
            guard let option = options.first(where: { $0.names.contains(name) }) else {
                throw .usage("unknown option \(Format.quoted(argument))", command: command)
            }
            guard option.valueName != nil else {
                if inline != nil {
                    throw .usage("the option \(name) takes no value", command: command)
                }
                result.flags.insert(option.id)
                continue
            }
            if let inline {
                result.values[option.id] = inline
            } else if index < arguments.count {
                result.values[option.id] = arguments[index]
                index += 1
            } else {
                throw .usage("the option \(name) needs a value (\(option.synopsis))", command: command)
            }
        }
        return result
    }

    /// `--name=value` or `-nVALUE` into name and value; anything else whole.
    private static func split(_ argument: String) -> (String, String?) {
        if argument.hasPrefix("--") {
            guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
            return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
        }
        if argument.count > 2 {
            let name = String(argument.prefix(2))
            return (name, String(argument.dropFirst(2)))
        }
        return (argument, nil)
    }
}
