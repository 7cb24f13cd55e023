/// A store that keeps nothing: every stack lives only as long as the daemon.
public final class MemoryHistoryStore: HistoryStore {
    /// An empty store.
    public init() {}
    /// Nothing was stored.
    public func loadStacks() throws(StoreError) -> [StackRecord] { [] }
    /// Fresh counters.
    public func loadCounters() throws(StoreError) -> StoreCounters {
        StoreCounters(nextStackNumber: 1, nextGroupID: 1)
    }
    /// Nothing to write.
    public func stackChanged(_ record: StackRecord, counters: StoreCounters) {}
    /// Nothing to delete.
    public func stackRemoved(number: UInt64) {}
    /// Never anything pending.
    public var hasPendingChanges: Bool { false }
    /// Nothing to commit.
    public func commit() throws(StoreError) {}
}
