/// A command line's options and operands as coreutils reads them: short
/// flags alone or together (`-rf`), long ones (`--force`), an option's
/// value attached or next (`-tDIR`, `-t DIR`, `--target-directory=DIR`),
/// `--` ending the options. Any option the command does not know makes it
/// one undod-files does not run (`unknown`).
struct CommandOptions {
    /// The flags given, by their short letter.
    var flags: Set<Character> = []
    /// The values given, by their option's short letter.
    var values: [Character: String] = [:]
    /// The operands, in order.
    var operands: [String] = []
    /// The first option the command does not know, as written.
    var unknown: String?

    /// Reads `arguments` for a command whose flags are `flags`, whose
    /// options taking a value are `valued`, and whose long names map to
    /// short letters by `long`.
    init(_ arguments: [String], flags known: Set<Character>, valued: Set<Character> = [],
         long: [String: Character] = [:]) {
        var index = 0
        var ended = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if ended || argument == "-" || !argument.hasPrefix("-") {
                operands.append(argument)
            } else if argument == "--" {
                ended = true
            } else if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                let name = String(body.prefix { $0 != "=" })
                guard let letter = long[name] else {
                    unknown = unknown ?? argument
                    continue
                }
                if valued.contains(letter) {
                    if let equals = body.firstIndex(of: "=") {
                        values[letter] = String(body[body.index(after: equals)...])
                    } else if index < arguments.count {
                        values[letter] = arguments[index]
                        index += 1
                    } else {
                        unknown = unknown ?? argument
                    }
                } else {
                    flags.insert(letter)
                }
            } else {
                var letters = argument.dropFirst()
                while let letter = letters.first {
                    letters = letters.dropFirst()
                    if valued.contains(letter) {
                        if !letters.isEmpty {
                            values[letter] = String(letters)
                        } else if index < arguments.count {
                            values[letter] = arguments[index]
                            index += 1
                        } else {
                            unknown = unknown ?? argument
                        }
                        break
                    }
                    guard known.contains(letter) else {
                        unknown = unknown ?? "-\(letter)"
                        break
                    }
                    flags.insert(letter)
                }
            }
        }
    }
}
