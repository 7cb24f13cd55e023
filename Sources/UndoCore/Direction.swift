/// Which way a group is applied.
public enum Direction: String, Sendable, Hashable, CaseIterable {
    /// Reverting a group: its undo payloads, last action first.
    case undo
    /// Making a group again: its redo payloads, first action first.
    case redo

    /// The direction's name on the wire (`Client.Apply`, `Applied`): `"undo"` or `"redo"`.
    public var wireName: String { rawValue }
}
