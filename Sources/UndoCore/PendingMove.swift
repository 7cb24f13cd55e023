/// A group on its way from one side of a stack to the other: the one in
/// flight, or the one an abort or obsolete drop ended.
public struct PendingMove: Sendable, Hashable {
    /// Whether it is an undo or a redo.
    public var direction: Direction
    /// The group's id.
    public var group: UInt64
    /// The group's name.
    public var name: String

    /// A pending move with the given fields.
    public init(direction: Direction, group: UInt64, name: String) {
        self.direction = direction
        self.group = group
        self.name = name
    }
}
