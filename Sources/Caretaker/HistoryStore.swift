package import UndoCore
package import UndoStore

/// Where the daemon keeps stacks between runs. The service tells it what
/// changed as it happens; at the end of each loop turn it commits everything
/// in one transaction, before the replies that depend on it leave (group
/// commit). Implementations: `MemoryHistoryStore` (nothing survives, e.g.
/// with no usable state directory) and `SQLiteHistoryStore`.
package protocol HistoryStore: AnyObject {
    /// The stacks stored by an earlier run, detached, their actions left on
    /// disk; and the counters that must never repeat.
    func load(settings: ServiceSettings, now: Int64) throws(StoreError) -> (stacks: [StackRecord], counters: StoreCounters)
    /// `record` changed: its row, and each group in `groups` as it will be
    /// at commit time (written, or deleted when gone). Memory-only stacks are
    /// never written (and are deleted from disk if they were there).
    func stackChanged(_ record: StackRecord, groups: [GroupChange])
    /// `record` was detached and nothing else of it changed: a store may
    /// write that later, as no answer waits for it (by default, as
    /// `stackChanged`).
    func detachTimeChanged(_ record: StackRecord)
    /// Stack `number` was deleted.
    func stackRemoved(number: UInt64)
    /// The history's budget (`limits.max_total_bytes`) is now `bytes`
    /// (at load and on every reload): the files stay within twice it plus
    /// 16 MiB.
    func budgetChanged(to bytes: UInt64)
    /// Whether the disk holds exactly stack `number`'s present history (it
    /// is stored and nothing of it waits for a commit).
    func isSavedAsIs(_ number: UInt64) -> Bool
    /// Brings every group's actions into memory (before a stack stops
    /// being kept on disk).
    func loadAllActions(of record: StackRecord) throws(StoreError)
    /// `record`'s history as the last successful commit left it (empty when
    /// it was never written), with `settings`.
    func storedHistory(of record: StackRecord, settings: StackSettings) throws(StoreError) -> UndoStack
    /// Brings the actions of `record`'s next group to undo or to redo into
    /// memory (they stay on disk until needed); a failure names the group.
    func loadActions(ofTop side: Direction, in record: StackRecord) throws(StoreError)
    /// Starts writing a large push's actions to a file of their own on
    /// another thread, which then calls `then` with it (nil when it could
    /// not be written). False, and `then` never called, when this store
    /// keeps no such files.
    func writeAhead(_ actions: EncodedActions, then: @escaping @Sendable (PayloadFile?) -> Void) -> Bool
    /// Group `id` was made by a push whose actions `file` holds: its row,
    /// written with the next commit, names the file instead of holding them.
    func adopt(_ file: PayloadFile, forGroup id: UInt64)
    /// Whether anything must be written before replies may leave: pending
    /// changes, or counters past what the store has reserved on disk.
    func needsCommit(counters: StoreCounters) -> Bool
    /// Whether numbers and ids up to `counters` are on disk already (stack
    /// numbers exactly, group ids reserved ahead).
    func hasReserved(_ counters: StoreCounters) -> Bool
    /// Writes every pending change in one transaction, with the next stack
    /// number and group ids reserved ahead of `counters`, so that none is
    /// ever handed out twice, even after a crash. On failure nothing of it is written and
    /// the changes stay pending.
    func commit(counters: StoreCounters) throws(StoreError)
    /// The daemon is stopping: leave the files tidy (everything committed
    /// already).
    func close()
}

/// A group to write (or delete, when it is gone by commit time).
package struct GroupChange: Sendable, Hashable {
    /// The group's id.
    package var id: UInt64
    /// Whether its actions changed (a new group, or a merge), not only its
    /// side, name or tag (or it was dropped).
    package var actionsChanged: Bool

    /// A group whose row must be written (with its actions, when they changed).
    package init(id: UInt64, actionsChanged: Bool = false) {
        self.id = id
        self.actionsChanged = actionsChanged
    }

    /// `first`, then the groups of `others` and `more`, in order, whose
    /// actions did not change: what a push or a move changed, in one array
    /// made once.
    static func list(_ first: GroupChange, then others: [UInt64], _ more: [UInt64] = []) -> [GroupChange] {
        var list: [GroupChange] = []
        list.reserveCapacity(1 + others.count + more.count)
        list.append(first)
        for id in others { list.append(GroupChange(id: id)) }
        for id in more { list.append(GroupChange(id: id)) }
        return list
    }
}

/// The counters a store keeps so numbers and ids are never reused.
package struct StoreCounters: Sendable, Equatable {
    /// The number the next new stack gets.
    package var nextStackNumber: UInt64
    /// The id the next new group gets.
    package var nextGroupID: UInt64

    /// Makes counters.
    package init(nextStackNumber: UInt64, nextGroupID: UInt64) {
        self.nextStackNumber = nextStackNumber
        self.nextGroupID = nextGroupID
    }
}

extension HistoryStore {
    /// Nothing on disk to keep within the budget.
    package func budgetChanged(to bytes: UInt64) {}

    /// Keeps no payload files.
    package func writeAhead(_ actions: EncodedActions, then: @escaping @Sendable (PayloadFile?) -> Void) -> Bool {
        false
    }

    /// Keeps no payload files.
    package func adopt(_ file: PayloadFile, forGroup id: UInt64) {}

    /// Writes a detach as any other change.
    package func detachTimeChanged(_ record: StackRecord) {
        stackChanged(record, groups: [])
    }
}
