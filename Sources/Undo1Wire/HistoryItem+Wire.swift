public import DBus
public import Undo1
public import UndoCore

/// A history item as `Stack.History` carries it: `(tsxt)`.
extension HistoryItem {
    /// Reads one `(tsxt)` entry; nil if it has another shape.
    public init?(_ value: DBusValue) {
        guard let fields = value.fields, fields.count == 4,
              let group = fields[0].uint64, let name = fields[1].string,
              let time = fields[2].int64, let bytes = fields[3].uint64 else { return nil }
        self.init(group: group, name: name, time: time, bytes: bytes)
    }

    /// The item on the wire.
    public var value: DBusValue {
        .structure([.uint64(group), .string(name), .int64(time), .uint64(bytes)])
    }

    /// Both sides of a `History` answer, top first; nil for another shape.
    public static func sides(of reply: [DBusValue]) -> (undo: [HistoryItem], redo: [HistoryItem])? {
        guard reply.count == 2, let undo = reply[0].elements, let redo = reply[1].elements else { return nil }
        return (undo.compactMap(HistoryItem.init), redo.compactMap(HistoryItem.init))
    }
}
