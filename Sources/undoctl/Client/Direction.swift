/// Undo or redo.
enum Direction: String, Sendable {
    /// Undo: the `undo` direction of the wire.
    case undo
    /// Redo.
    case redo

    /// The past tense for sentences: `Undid`, `Redid`.
    var pastTense: String { self == .undo ? "Undid" : "Redid" }
}
