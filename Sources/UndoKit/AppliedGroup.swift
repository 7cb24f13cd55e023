/// An undo or redo that was applied: on which stack, which group, its name.
public struct AppliedGroup: Sendable, Equatable {
    /// The stack's path.
    public let stack: String
    /// The group that moved.
    public let group: UInt64
    /// Its name ("Typing").
    public let name: String

    /// A group with these fields.
    public init(stack: String, group: UInt64, name: String) {
        self.stack = stack
        self.group = group
        self.name = name
    }
}
