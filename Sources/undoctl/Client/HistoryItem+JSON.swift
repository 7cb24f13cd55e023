import JSONText
import Undo1
import UndoCore

extension HistoryItem {
    /// The entry as `history --json` prints it.
    var json: JSONValue {
        .object(["group": .uint(group), "name": .string(name), "time_us": .int(time),
                 "time": .string(Format.utcTimestamp(microseconds: time)), "bytes": .uint(bytes)])
    }
}
