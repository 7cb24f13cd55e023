/// One group of a stack's history as the narrow interface shows it (the
/// model's `history`, `Stack.History`'s `(tsxt)`): no payloads.
public struct HistoryItem: Sendable, Hashable {
    /// The group's id.
    public var group: UInt64
    /// The group's name.
    public var name: String
    /// When it was pushed or last merged into, in µs since the Unix epoch.
    public var time: Int64
    /// Its payload bytes.
    public var bytes: UInt64

    /// An item with the given fields.
    public init(group: UInt64, name: String, time: Int64, bytes: UInt64) {
        self.group = group
        self.name = name
        self.time = time
        self.bytes = bytes
    }
}
