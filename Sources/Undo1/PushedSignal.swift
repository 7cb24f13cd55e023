public import DBus

/// `Stack.Pushed(t group, s name, b merged)`, typed: after every successful push.
public struct PushedSignal: Sendable, Equatable {
    /// The signal's name.
    public static let member = "Pushed"
    /// The group made, or merged into.
    public var group: UInt64
    /// The push's name.
    public var name: String
    /// Whether it merged into the top group.
    public var merged: Bool

    /// A signal with these fields.
    public init(group: UInt64, name: String, merged: Bool) {
        self.group = group
        self.name = name
        self.merged = merged
    }

    /// Reads the signal's arguments; nil for another shape.
    public init?(_ arguments: [DBusValue]) {
        guard arguments.count == 3, let group = arguments[0].uint64, let name = arguments[1].string,
              let merged = arguments[2].bool else { return nil }
        self.init(group: group, name: name, merged: merged)
    }

    /// The signal's arguments.
    public var arguments: [DBusValue] { [.uint64(group), .string(name), .bool(merged)] }
}
