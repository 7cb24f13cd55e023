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
}
