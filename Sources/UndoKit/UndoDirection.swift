import Undo1

/// Undo or redo.
public enum UndoDirection: String, Sendable {
    /// Back to before a change.
    case undo
    /// Forward again.
    case redo

    /// The contract's spelling.
    var wire: WireDirection { self == .undo ? .undo : .redo }
}
