public import DBus
public import UndoCore

/// `Stack.Applied(s direction, t group, s name)`, typed: after every
/// successful undo or redo.
public struct AppliedSignal: Sendable, Equatable {
    /// The signal's name.
    public static let member = "Applied"
    /// Undo or redo.
    public var direction: Direction
    /// The group that moved.
    public var group: UInt64
    /// Its name.
    public var name: String

    /// A signal with these fields.
    public init(direction: Direction, group: UInt64, name: String) {
        self.direction = direction
        self.group = group
        self.name = name
    }

    /// Reads the signal's arguments; nil for another shape.
    public init?(_ arguments: [DBusValue]) {
        guard arguments.count == 3, let direction = arguments[0].string.flatMap(Direction.init(rawValue:)),
              let group = arguments[1].uint64, let name = arguments[2].string else { return nil }
        self.init(direction: direction, group: group, name: name)
    }

    /// The signal's arguments.
    public var arguments: [DBusValue] { [.string(direction.rawValue), .uint64(group), .string(name)] }
}
