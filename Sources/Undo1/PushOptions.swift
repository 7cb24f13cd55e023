public import DBus

/// The hints of `Stack.Push`/`PushGroup`, typed: each one optional, unknown
/// keys ignored, a known key of another type refused.
public struct PushOptions: Sendable, Equatable {
    /// `merge_key`: coalesce into the top group when it has the same key.
    public var mergeKey: String?
    /// `merge_window_ms`: this push's merge window.
    public var mergeWindowMilliseconds: UInt32?
    /// `state_tag`: the document's state tag after this change.
    public var stateTag: String?

    /// Hints with these values; nil leaves a hint out.
    public init(mergeKey: String? = nil, mergeWindowMilliseconds: UInt32? = nil, stateTag: String? = nil) {
        self.mergeKey = mergeKey
        self.mergeWindowMilliseconds = mergeWindowMilliseconds
        self.stateTag = stateTag
    }

    /// Reads the hints of a push.
    public init(decoding values: [String: DBusValue]) throws(OptionTypeError) {
        let reader = OptionReader(values)
        self.init(mergeKey: try reader.string("merge_key"),
                  mergeWindowMilliseconds: try reader.uint32("merge_window_ms"),
                  stateTag: try reader.string("state_tag"))
    }

    /// The hints given, as the `a{sv}` entries a push takes.
    public var values: [String: DBusValue] {
        var all: [String: DBusValue] = [:]
        if let mergeKey { all["merge_key"] = .string(mergeKey) }
        if let mergeWindowMilliseconds { all["merge_window_ms"] = .uint32(mergeWindowMilliseconds) }
        if let stateTag { all["state_tag"] = .string(stateTag) }
        return all
    }
}
