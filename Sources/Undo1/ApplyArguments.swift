public import UndoCore

/// The arguments of a `Client.Apply` call, typed: what an application is
/// asked to apply.
public struct ApplyArguments: Sendable, Equatable {
    /// The stack the group belongs to.
    public var stack: String
    /// The group.
    public var group: UInt64
    /// Undo or redo.
    public var direction: Direction
    /// The payloads, in the order to apply them.
    public var payloads: [[UInt8]]

    /// Arguments with these fields.
    public init(stack: String, group: UInt64, direction: Direction, payloads: [[UInt8]]) {
        self.stack = stack
        self.group = group
        self.direction = direction
        self.payloads = payloads
    }
}
