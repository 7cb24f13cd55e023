/// What an undo or redo answers: the stack it acted on, the group that
/// moved and its name.
public struct AppliedReply: Sendable, Equatable {
    /// The stack's path.
    public var stack: String
    /// The group that moved.
    public var group: UInt64
    /// Its name.
    public var name: String

    /// A reply with these fields.
    public init(stack: String, group: UInt64, name: String) {
        self.stack = stack
        self.group = group
        self.name = name
    }
}
