/// Undo or redo, as the contract spells them (`Apply`'s `direction`, the
/// `Applied` signal).
public enum WireDirection: String, Sendable, Hashable {
    /// `"undo"`.
    case undo
    /// `"redo"`.
    case redo
}
