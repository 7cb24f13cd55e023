import UndoCore

/// Undo or redo, as an app sees it (the library's contract names it so;
/// undod's own `Direction` is what goes on the wire).
public enum UndoDirection: String, Sendable {
    /// Back to before a change.
    case undo
    /// Forward again.
    case redo

    /// The contract's spelling.
    var wire: Direction { self == .undo ? .undo : .redo }
}
