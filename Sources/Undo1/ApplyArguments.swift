public import DBus
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

    /// The arguments on the wire.
    public var values: [DBusValue] {
        [.objectPath(stack), .uint64(group), .string(direction.rawValue), .byteArrays(payloads)]
    }

    /// Reads `Apply(o stack, t group, s direction, aay payloads)`; nil for
    /// any other shape or direction.
    public init?(_ arguments: [DBusValue]) {
        guard arguments.count == 4, let stack = arguments[0].string, let group = arguments[1].uint64,
              let direction = arguments[2].string.flatMap(Direction.init(rawValue:)),
              let items = arguments[3].elements else { return nil }
        self.stack = stack
        self.group = group
        self.direction = direction
        payloads = items.map { $0.bytes ?? [] }
    }
}
