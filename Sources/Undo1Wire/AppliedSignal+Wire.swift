public import DBus
public import Undo1
public import UndoCore

/// The signal's arguments on the wire.
extension AppliedSignal {
    /// Reads the signal's arguments; nil for another shape.
    public init?(_ arguments: [DBusValue]) {
        guard arguments.count == 3, let direction = arguments[0].string.flatMap(Direction.init(rawValue:)),
              let group = arguments[1].uint64, let name = arguments[2].string else { return nil }
        self.init(direction: direction, group: group, name: name)
    }

    /// The signal's arguments.
    public var arguments: [DBusValue] { [.string(direction.rawValue), .uint64(group), .string(name)] }
}
