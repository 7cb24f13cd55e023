public import DBus
public import Undo1
public import UndoCore

/// The hints of `Stack.Push`/`PushGroup` as the wire carries them: an
/// `a{sv}` where each hint may be left out, unknown keys are ignored and a
/// known key of another type is refused.
extension PushHints {
    /// Reads the hints of a push.
    public init(decoding values: [String: DBusValue]) throws(OptionTypeError) {
        let reader = OptionReader(values)
        self.init(mergeKey: try reader.string("merge_key") ?? "",
                  mergeWindowMilliseconds: try reader.uint32("merge_window_ms"),
                  stateTag: try reader.string("state_tag") ?? "")
    }

    /// The hints given, as the `a{sv}` entries a push takes (an empty merge
    /// key or state tag is left out: it means none).
    public var values: [String: DBusValue] {
        var all: [String: DBusValue] = [:]
        if !mergeKey.isEmpty { all["merge_key"] = .string(mergeKey) }
        if let mergeWindowMilliseconds { all["merge_window_ms"] = .uint32(mergeWindowMilliseconds) }
        if !stateTag.isEmpty { all["state_tag"] = .string(stateTag) }
        return all
    }
}
