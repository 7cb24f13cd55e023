/// One group as the narrow interface shows it: no payloads.
public struct HistoryEntry: Sendable, Hashable {
    /// The group's id.
    public var id: UInt64
    /// The group's name.
    public var name: String
    /// When it was pushed or last merged into, in µs since the Unix epoch.
    public var time: Int64
    /// Its payload bytes.
    public var bytes: UInt64

    /// An entry with the given fields.
    public init(id: UInt64, name: String, time: Int64, bytes: UInt64) {
        self.id = id
        self.name = name
        self.time = time
        self.bytes = bytes
    }
}
