/// A program that runs scripts (`python3`, `gjs`, `node`, …): the origin
/// of a process it runs is the script, found in its arguments as the
/// interpreter itself would find it.
struct Interpreter {
    /// What an interpreter runs.
    enum Script: Equatable {
        /// Nothing found (an interactive interpreter).
        case none
        /// Code given on the command line or standard input: the option
        /// that gave it (`-c`, `-e`, `-`).
        case inline(String)
        /// A module by name (`python3 -m name`).
        case module(String)
        /// A script file, as written in the arguments.
        case file(String)
    }

    /// Single-letter options whose argument is the code itself.
    private let inlineLetters: Set<Character>
    /// Long options whose argument is the code itself.
    private let inlineWords: Set<String>
    /// Single-letter options whose argument names a module to run.
    private let moduleLetters: Set<Character>
    /// Single-letter options that take an argument (not the script).
    private let argumentLetters: Set<Character>
    /// Long options that take a separate argument (not the script).
    private let argumentWords: Set<String>

    /// The interpreter `executable` (a path) is, judged by its name; nil
    /// for a program that runs no scripts.
    init?(executable: String) {
        let name = executable.split(separator: "/").last.map(String.init) ?? executable
        let family = name.prefix { !$0.isNumber && $0 != "." && $0 != "-" }
        switch family {
        case "python", "pypy":
            self.init(inline: "c", module: "m", arguments: "WX")
        case "gjs":
            self.init(inline: "c", arguments: "I", inlineWords: ["--command"], argumentWords: ["--include-path"])
        case "node", "nodejs":
            self.init(inline: "ep", arguments: "r", inlineWords: ["--eval", "--print"], argumentWords: ["--require"])
        case "perl", "ruby":
            self.init(inline: "eE", arguments: family == "ruby" ? "Ir" : "")
        case "lua", "luajit":
            self.init(inline: "e", arguments: "l")
        case "sh", "bash", "dash", "zsh", "ksh", "mksh", "fish":
            self.init(inline: "c", arguments: "o", inlineWords: ["--command"])
        case "php", "tclsh", "wish", "guile", "osascript", "qjs", "deno", "bun":
            self.init(inline: "", arguments: "")
        default:
            return nil
        }
    }

    private init(inline: String, module: String = "", arguments: String, inlineWords: Set<String> = [],
                 argumentWords: Set<String> = []) {
        inlineLetters = Set(inline)
        moduleLetters = Set(module)
        argumentLetters = Set(arguments)
        self.inlineWords = inlineWords
        self.argumentWords = argumentWords
    }

    /// What the interpreter runs, given its arguments after its own name.
    func script<Arguments: Collection<String>>(in arguments: Arguments) -> Script {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--" { return rest.first.map { .file($0) } ?? .none }
            if argument == "-" { return .inline("-") }
            if argument.hasPrefix("--") {
                let word = String(argument.prefix { $0 != "=" })
                if inlineWords.contains(word) { return .inline(word) }
                if argumentWords.contains(word), !argument.contains("=") { _ = rest.popFirst() }
                continue
            }
            guard argument.hasPrefix("-") else { return .file(argument) }
            // A cluster of single letters: `-uc`, `-mhttp.server`, `-W error`.
            var letters = argument.dropFirst()
            while let letter = letters.popFirst() {
                if inlineLetters.contains(letter) { return .inline("-\(letter)") }
                let attached = String(letters)
                if moduleLetters.contains(letter) {
                    return .module(attached.isEmpty ? rest.first ?? "" : attached)
                }
                if argumentLetters.contains(letter) {
                    if attached.isEmpty { _ = rest.popFirst() }
                    break
                }
            }
        }
        return .none
    }
}
