public import DBus

/// What an undo or redo answers: the stack it acted on, the group that
/// moved and its name.
public struct AppliedReply: Sendable, Equatable {
    /// The stack's path.
    public var stack: String
    /// The group that moved.
    public var group: UInt64
    /// Its name.
    public var name: String

    /// A reply with these fields.
    public init(stack: String, group: UInt64, name: String) {
        self.stack = stack
        self.group = group
        self.name = name
    }

    /// Reads the answer of `UndoFocused`/`RedoFocused` `(o, t, s)`, or of
    /// `Stack.Undo`/`Redo` `(t, s)` on `stack`; nil for another shape.
    public init?(_ reply: [DBusValue], stack: String? = nil) {
        if let stack, reply.count == 2, let group = reply[0].uint64, let name = reply[1].string {
            self.stack = stack
            self.group = group
            self.name = name
        } else if reply.count == 3, let path = reply[0].string, let group = reply[1].uint64,
                  let name = reply[2].string {
            self.stack = path
            self.group = group
            self.name = name
        } else {
            return nil
        }
    }
}
