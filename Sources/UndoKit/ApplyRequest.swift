/// What undod asks the application to apply: one group's payloads, for an
/// undo or a redo, whoever asked (the app itself, the global key, undoctl).
public struct ApplyRequest: Sendable {
    /// Undo or redo.
    public let direction: UndoDirection
    /// The group.
    public let group: UInt64
    /// The payloads in the order to apply them (an undo's last action
    /// first, a redo's first action first).
    public let payloads: [[UInt8]]
    /// The stack's path.
    public let stack: String

    /// A request with these fields (undod's calls arrive as them; an app's
    /// tests can make their own to try the handler without undod).
    public init(direction: UndoDirection, group: UInt64, payloads: [[UInt8]], stack: String) {
        self.direction = direction
        self.group = group
        self.payloads = payloads
        self.stack = stack
    }
}
