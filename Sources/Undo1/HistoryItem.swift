public import DBus

/// One group of a stack's history as `Stack.History` reports it, `(tsxt)`:
/// the narrow interface, no payloads.
public struct HistoryItem: Sendable, Equatable {
    /// The group id.
    public var group: UInt64
    /// The group's name.
    public var name: String
    /// When it was pushed or last merged into, in µs since the Unix epoch.
    public var time: Int64
    /// Its payload bytes.
    public var bytes: UInt64

    /// An entry with these fields.
    public init(group: UInt64, name: String, time: Int64, bytes: UInt64) {
        self.group = group
        self.name = name
        self.time = time
        self.bytes = bytes
    }

    /// Reads one `(tsxt)` entry; nil if it has another shape.
    public init?(_ value: DBusValue) {
        guard let fields = value.fields, fields.count == 4,
              let group = fields[0].uint64, let name = fields[1].string,
              let time = fields[2].int64, let bytes = fields[3].uint64 else { return nil }
        self.init(group: group, name: name, time: time, bytes: bytes)
    }

    /// The entry on the wire.
    public var value: DBusValue {
        .structure([.uint64(group), .string(name), .int64(time), .uint64(bytes)])
    }

    /// Both sides of a `History` answer, top first; nil for another shape.
    public static func sides(of reply: [DBusValue]) -> (undo: [HistoryItem], redo: [HistoryItem])? {
        guard reply.count == 2, let undo = reply[0].elements, let redo = reply[1].elements else { return nil }
        return (undo.compactMap(HistoryItem.init), redo.compactMap(HistoryItem.init))
    }
}
