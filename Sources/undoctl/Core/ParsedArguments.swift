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
