/// An undo or redo the owner applied and the stack committed.
public struct CompletedMove: Sendable, Hashable {
    /// Whether the group was undone or redone.
    public var direction: Direction
    /// The id of the group that moved to the other side.
    public var group: UInt64
    /// The group's name.
    public var name: String
    /// The ids of the oldest undo groups dropped because a redo took the undo
    /// side over its level limit (only after a lowered limit), oldest first.
    public var dropped: [UInt64]

    /// A completed move with the given fields.
    public init(direction: Direction, group: UInt64, name: String, dropped: [UInt64] = []) {
        self.direction = direction
        self.group = group
        self.name = name
        self.dropped = dropped
    }
}
