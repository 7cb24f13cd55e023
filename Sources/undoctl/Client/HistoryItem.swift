import DBus

/// One group on a side of a stack's history, as `History` reports it.
struct HistoryItem: Sendable, Equatable {
    /// The group id.
    var group: UInt64
    /// The group's name.
    var name: String
    /// When it was pushed or last merged into, in µs since the Unix epoch.
    var time: Int64
    /// Its payload bytes.
    var bytes: UInt64

    /// Reads one `(tsxt)` entry; nil if it has another shape.
    init?(_ value: DBusValue) {
        guard let fields = value.fields, fields.count == 4,
              let group = fields[0].uint64, let name = fields[1].string,
              let time = fields[2].int64, let bytes = fields[3].uint64 else { return nil }
        self.group = group
        self.name = name
        self.time = time
        self.bytes = bytes
    }

    /// The entry as `history --json` prints it.
    var json: JSONValue {
        .object(["group": .uint(group), "name": .string(name), "time_us": .int(time),
                 "time": .string(Format.utcTimestamp(microseconds: time)), "bytes": .uint(bytes)])
    }
}
