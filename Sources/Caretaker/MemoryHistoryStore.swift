package import UndoCore
package import UndoStore

/// A store that keeps nothing: every stack lives only as long as the
/// daemon. Over a state directory that cannot be written it starts from
/// what the store there holds (read once, every payload into memory), so
/// that stored history is still offered and no stack number or group id
/// the store holds is handed out again.
package final class MemoryHistoryStore: HistoryStore {
    private let stored: HistoryDatabase?

    /// An empty store.
    package init() {
        stored = nil
    }

    /// A store that starts from what `database` (opened read-only) holds.
    package init(startingFrom database: HistoryDatabase) {
        stored = database
    }

    /// The stacks the read-only store holds (detached, in memory from now
    /// on), and counters past everything it holds.
    package func load(settings: ServiceSettings, now: Int64) throws(StoreError) -> (stacks: [StackRecord], counters: StoreCounters) {
        guard let stored else { return ([], StoreCounters(nextStackNumber: 1, nextGroupID: 1)) }
        let counters = try stored.loadCounters()
        var records: [StackRecord] = []
        for var stack in try stored.loadStacks() {
            _ = stack.skipTrimmed()
            let record = try StackRestorer.record(restoring: stack, persistent: false, settings: settings, now: now)
            for group in stack.undo + stack.redo { try StackRestorer.load(group, into: record, from: stored) }
            records.append(record)
        }
        return (records, StoreCounters(nextStackNumber: counters.nextStack, nextGroupID: counters.nextGroup))
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
    package func loadActions(ofTop side: Direction, in record: StackRecord) throws(StoreError) {}
    /// Never anything to write.
    package func needsCommit(counters: StoreCounters) -> Bool { false }
    /// Nothing survives, so nothing can be handed out twice.
    package func hasReserved(_ counters: StoreCounters) -> Bool { true }
    /// Nothing to commit.
    package func commit(counters: StoreCounters) throws(StoreError) {}
    /// Nothing to tidy.
    package func close() {}
}
