import UndoCore
import UndoStore

/// A store that keeps nothing: every stack lives only as long as the daemon.
public final class MemoryHistoryStore: HistoryStore {
    /// An empty store.
    public init() {}
    /// Nothing was stored.
    public func load(config: DaemonConfig, now: Int64) throws(StoreError) -> (stacks: [StackRecord], counters: StoreCounters) {
        ([], StoreCounters(nextStackNumber: 1, nextGroupID: 1))
    }
    /// Nothing to write.
    public func stackChanged(_ record: StackRecord, groups: [GroupChange]) {}
    /// Nothing to delete.
    public func stackRemoved(number: UInt64) {}
    /// Nothing is on disk.
    public func isSavedAsIs(_ number: UInt64) -> Bool { false }
    /// Every action is in memory already.
    public func loadAllActions(of record: StackRecord) throws(StoreError) {}
    /// Nothing was ever written.
    public func storedHistory(of record: StackRecord, settings: StackSettings) throws(StoreError) -> UndoStack {
        UndoStack(settings: settings)
    }
    /// Every action is in memory already.
    public func loadTopActions(of record: StackRecord) throws(StoreError) {}
    /// Never anything to write.
    public func needsCommit(counters: StoreCounters) -> Bool { false }
    /// Nothing survives, so nothing can be handed out twice.
    public func hasReserved(_ counters: StoreCounters) -> Bool { true }
    /// Nothing to commit.
    public func commit(counters: StoreCounters) throws(StoreError) {}
    /// Nothing to tidy.
    public func close() {}
}
