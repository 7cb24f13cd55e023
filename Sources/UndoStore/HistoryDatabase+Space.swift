/// The store's files kept small and its deleted history gone: the WAL
/// folded back (`CheckpointPacer`), zeroing what is deleted for good,
/// giving freed pages back.
extension HistoryDatabase {
    /// Has a new checkpointer fold the WAL back, and reads the page size.
    func attachCheckpointer() {
        checkpointPacer.attach(to: database, path: path)
        pageSize = (try? database.integer("PRAGMA page_size")) ?? pageSize
    }

    /// Whether large writes should wait (`CheckpointPacer.isCatchingUp`).
    public var isCatchingUp: Bool { checkpointPacer.isCatchingUp }

    /// Calls `body` whenever `isCatchingUp` may have turned false (`CheckpointPacer.whenCaughtUp`).
    public func whenCaughtUp(_ body: @escaping @Sendable () -> Void) {
        checkpointPacer.whenCaughtUp(body)
    }

    /// Calls `body` when the WAL cannot be folded back, with why, and when
    /// it can again, with nil (`CheckpointPacer.whenFoldingBackFails`).
    public func whenFoldingBackFails(_ body: @escaping @Sendable (String?) -> Void) {
        checkpointPacer.whenFoldingBackFails(body)
    }

    /// How many checkpoints commits have asked for since the store opened.
    package var checkpointsAsked: Int { checkpointPacer.checkpointsAsked }

    /// See `CheckpointPacer.walBytesBeforeRestart(budget:)`.
    package static func walBytesBeforeRestart(budget: UInt64) -> Int64 {
        CheckpointPacer.walBytesBeforeRestart(budget: budget)
    }

    /// See `CheckpointPacer.walBytesBeforeWaiting(budget:)`.
    package static func walBytesBeforeWaiting(budget: UInt64) -> Int64 {
        CheckpointPacer.walBytesBeforeWaiting(budget: budget)
    }

    /// See `DeletedSpace.reclaimSlack(budget:)`.
    package static func reclaimSlack(budget: UInt64) -> Int64 {
        DeletedSpace.reclaimSlack(budget: budget)
    }

    /// Moves everything from the write-ahead log into the database and
    /// empties the WAL, so that deleted history leaves no copy behind
    /// (`secure_delete` already zeroes it in the database itself).
    public func checkpoint() {
        try? applyJournal()
        try? database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Whether what the next transactions delete is overwritten with zeros
    /// (`secure_delete` ON), as for a stack forgotten or discarded, or only
    /// where that costs no extra writing (FAST, the default: groups that age
    /// out under the limits, whose freed pages compacting reuses or cuts off).
    public func zeroDeletedContent(_ zero: Bool) {
        deletedSpace.zero(zero, in: database)
    }

    /// Gives the pages deleted groups freed back to the file system once
    /// they are more than `reclaimSlack(budget:)` (`DeletedSpace.reclaim`),
    /// and then asks for the WAL to be folded back.
    public func reclaim() {
        if deletedSpace.reclaim(from: database, pageSize: pageSize, budget: budget) { checkpointPacer.request() }
    }
}
