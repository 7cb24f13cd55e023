/// Where the daemon keeps stacks between runs. The service tells it what
/// changed as it happens; the daemon asks it to `commit` at the end of each
/// loop turn, before the replies that depend on those changes leave (group
/// commit). Implementations: `MemoryHistoryStore` (nothing survives) and,
/// with the persistence work, a SQLite store.
public protocol HistoryStore: AnyObject {
    /// The stacks stored by an earlier run, to export detached at start.
    func loadStacks() throws(StoreError) -> [StackRecord]
    /// The counters that must never repeat (next stack number, next group id).
    func loadCounters() throws(StoreError) -> StoreCounters
    /// `record` was created or changed; write it by the next commit
    /// (nothing for a stack that is not persistent).
    func stackChanged(_ record: StackRecord, counters: StoreCounters)
    /// Stack `number` was deleted; delete it by the next commit.
    func stackRemoved(number: UInt64)
    /// Whether changes wait for a commit.
    var hasPendingChanges: Bool { get }
    /// Writes every pending change in one transaction.
    func commit() throws(StoreError)
}

/// The counters a store keeps so numbers and ids are never reused.
public struct StoreCounters: Sendable, Equatable {
    /// The number the next new stack gets.
    public var nextStackNumber: UInt64
    /// The id the next new group gets.
    public var nextGroupID: UInt64

    /// Makes counters.
    public init(nextStackNumber: UInt64, nextGroupID: UInt64) {
        self.nextStackNumber = nextStackNumber
        self.nextGroupID = nextGroupID
    }
}

/// Why the store failed, as one sentence.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public var description: String
    /// Makes an error.
    public init(_ description: String) { self.description = description }
}
