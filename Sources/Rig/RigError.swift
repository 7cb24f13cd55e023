/// A failure of the rig itself (the private bus would not start), with a
/// sentence that says what happened.
public struct RigError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public let description: String

    /// Makes an error with the sentence `description`.
    public init(_ description: String) { self.description = description }
}
