import Undo1

/// The hints of a push, beyond its name and payloads.
public struct PushHints: Sendable, Equatable {
    /// Coalesce into the top group when it has the same key and is recent
    /// (successive keystrokes into one "Typing").
    public var mergeKey: String?
    /// This push's merge window, in ms (default: undod's `merge.window_ms`).
    public var mergeWindowMilliseconds: UInt32?
    /// A tag of the document's state after this change (a content hash), so
    /// that a history adopted later is kept only while it matches the document.
    public var stateTag: String?

    /// Hints with these values.
    public init(mergeKey: String? = nil, mergeWindowMilliseconds: UInt32? = nil, stateTag: String? = nil) {
        self.mergeKey = mergeKey
        self.mergeWindowMilliseconds = mergeWindowMilliseconds
        self.stateTag = stateTag
    }

    /// The hints as a push takes them.
    var options: PushOptions {
        PushOptions(mergeKey: mergeKey, mergeWindowMilliseconds: mergeWindowMilliseconds, stateTag: stateTag)
    }
}
