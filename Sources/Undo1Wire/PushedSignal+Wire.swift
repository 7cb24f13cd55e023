public import DBus
public import Undo1

/// The signal's arguments on the wire.
extension PushedSignal {
    /// Reads the signal's arguments; nil for another shape.
    public init?(_ arguments: [DBusValue]) {
        guard arguments.count == 3, let group = arguments[0].uint64, let name = arguments[1].string,
              let merged = arguments[2].bool else { return nil }
        self.init(group: group, name: name, merged: merged)
    }

    /// The signal's arguments.
    public var arguments: [DBusValue] { [.uint64(group), .string(name), .bool(merged)] }
}
