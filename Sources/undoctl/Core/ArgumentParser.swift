/// The small parser every command shares: options may come before, after
/// or between positional arguments; `--name=value`, `--name value`, `-nVALUE`
/// and `-n VALUE` all work; `--` ends the options. An option with a value
/// given twice is a usage error, never a silent choice of one of the two (a
/// flag given twice is just set).
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
            guard result.values[option.id] == nil else {
                throw .usage("the option \(option.names.joined(separator: "/")) is given twice: give it once",
                             command: command)
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
