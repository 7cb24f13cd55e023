public import DBus
public import Undo1
public import UndoCore

/// `Client.Apply`'s arguments on the wire.
extension ApplyArguments {
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
        self.init(stack: stack, group: group, direction: direction, payloads: items.map { $0.bytes ?? [] })
    }
}
