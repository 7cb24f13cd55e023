/// Why sway's IPC socket could not be used, as a sentence's clause.
public struct SwayError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}
