/// An example command line and what it does, for help and the man page.
struct Example: Sendable {
    /// The command line.
    var command: String
    /// What it does.
    var meaning: String

    /// Makes an example.
    init(_ command: String, _ meaning: String) {
        self.command = command
        self.meaning = meaning
    }
}
