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
