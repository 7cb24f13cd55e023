/// What a successful push did.
public struct PushResult: Sendable, Hashable {
    /// The id of the group the push made or merged into.
    public var group: UInt64
    /// Whether the push merged into the top group instead of making a new one.
    public var merged: Bool
    /// The ids of the redo groups the push discarded (redo invalidation), nearest first.
    public var discarded: [UInt64]
    /// The ids of the oldest undo groups the limits then dropped, oldest first.
    public var dropped: [UInt64]

    /// A result with the given fields.
    public init(group: UInt64, merged: Bool, discarded: [UInt64], dropped: [UInt64]) {
        self.group = group
        self.merged = merged
        self.discarded = discarded
        self.dropped = dropped
    }
}
