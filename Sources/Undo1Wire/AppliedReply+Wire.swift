public import DBus
public import Undo1

/// An undo's or redo's answer as the wire carries it.
extension AppliedReply {
    /// Reads the answer of `UndoFocused`/`RedoFocused` `(o, t, s)`, or of
    /// `Stack.Undo`/`Redo` `(t, s)` on `stack`; nil for another shape.
    public init?(_ reply: [DBusValue], stack: String? = nil) {
        if let stack, reply.count == 2, let group = reply[0].uint64, let name = reply[1].string {
            self.init(stack: stack, group: group, name: name)
        } else if reply.count == 3, let path = reply[0].string, let group = reply[1].uint64,
                  let name = reply[2].string {
            self.init(stack: path, group: group, name: name)
        } else {
            return nil
        }
    }
}
