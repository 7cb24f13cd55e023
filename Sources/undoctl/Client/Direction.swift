/// Undo or redo.
enum Direction: String, Sendable {
    /// Undo: the `undo` direction of the wire.
    case undo
    /// Redo.
    case redo

    /// The Stack method.
    var stackMember: String { self == .undo ? "Undo" : "Redo" }
    /// The Manager method that acts on the focused stack.
    var focusedMember: String { self == .undo ? "UndoFocused" : "RedoFocused" }
    /// The past tense for sentences: `Undid`, `Redid`.
    var pastTense: String { self == .undo ? "Undid" : "Redid" }
}
