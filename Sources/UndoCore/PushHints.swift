/// The optional hints of a `Push`/`PushGroup` call.
public struct PushHints: Sendable, Hashable {
    /// The `merge_key` hint; `""` (or absent) means the push never merges.
    public var mergeKey: String
    /// The `merge_window_ms` hint, overriding the stack's merge window for this push; `nil` when absent.
    public var mergeWindowMilliseconds: UInt32?
    /// The `state_tag` hint: the document's tag after this change; `""` when absent.
    public var stateTag: String

    /// Hints with the given values; every one may be left out.
    public init(mergeKey: String = "", mergeWindowMilliseconds: UInt32? = nil, stateTag: String = "") {
        self.mergeKey = mergeKey
        self.mergeWindowMilliseconds = mergeWindowMilliseconds
        self.stateTag = stateTag
    }

    /// No hints at all: the push makes a new, untagged group.
    public static let none = PushHints()
}
