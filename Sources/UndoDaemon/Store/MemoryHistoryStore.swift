package import UndoCore
package import UndoStore

/// A store that keeps nothing: every stack lives only as long as the daemon.
package final class MemoryHistoryStore: HistoryStore {
    /// An empty store.
    package init() {}
    /// Nothing was stored.
    package func load(config: DaemonConfig, now: Int64) throws(StoreError) -> (stacks: [StackRecord], counters: StoreCounters) {
        ([], StoreCounters(nextStackNumber: 1, nextGroupID: 1))
    }
    /// Nothing to write.
    package func stackChanged(_ record: StackRecord, groups: [GroupChange]) {}
    /// Nothing to delete.
    package func stackRemoved(number: UInt64) {}
    /// Nothing is on disk.
    package func isSavedAsIs(_ number: UInt64) -> Bool { false }
    /// Every action is in memory already.
    package func loadAllActions(of record: StackRecord) throws(StoreError) {}
    /// Nothing was ever written.
    package func storedHistory(of record: StackRecord, settings: StackSettings) throws(StoreError) -> UndoStack {
        UndoStack(settings: settings)
    }
    /// Every action is in memory already.
    package func loadTopActions(of record: StackRecord) throws(StoreError) {}
    /// Never anything to write.
    package func needsCommit(counters: StoreCounters) -> Bool { false }
    /// Nothing survives, so nothing can be handed out twice.
    package func hasReserved(_ counters: StoreCounters) -> Bool { true }
    /// Nothing to commit.
    package func commit(counters: StoreCounters) throws(StoreError) {}
    /// Nothing to tidy.
    package func close() {}
}
