/// The store's files kept small and its deleted history gone: checkpoints
/// on a thread of their own, zeroing what is deleted for good, giving freed
/// pages back.
extension HistoryDatabase {
    /// Checkpoints from now on happen on the checkpointer's thread, asked
    /// for by every commit that leaves the log long enough; a statement
    /// that meets the checkpointer's lock (a TRUNCATE checkpoint) waits.
    func attachCheckpointer() {
        checkpointer?.stop()
        let checkpointer = WALCheckpointer(path: path)
        self.checkpointer = checkpointer
        database.waitForLocks(milliseconds: 5_000)
        database.onCommit { [unowned self] pages in
            logPages = pages
            if pages >= WALCheckpointer.pagesBeforeCheckpoint { checkpointer.request() }
        }
    }

    /// While commits keep coming, a checkpoint on another thread never
    /// finds the log fully folded back, and the log only starts over from
    /// its beginning when it is: past `pagesBeforeCatchUp` pages, the loop
    /// folds back the rest itself, right after its commit (most of it the
    /// checkpointer has done already), so that the next commit starts the
    /// log over and its file stays within `journal_size_limit`. Past
    /// `pagesBeforeWaiting` (the checkpointer starved of CPU while commits
    /// pile up), it waits for the checkpointer and empties the log
    /// (TRUNCATE): a stall, but the files stay within their bound.
    func catchUpIfBehind() {
        defer { logPages = 0 }
        if logPages >= WALCheckpointer.pagesBeforeWaiting {
            checkpointer?.waitForCheckpoint()
            try? database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        } else if logPages >= WALCheckpointer.pagesBeforeCatchUp {
            try? database.execute("PRAGMA wal_checkpoint(PASSIVE)")
        }
    }

    /// Moves everything from the write-ahead log into the database and
    /// empties the log, so that deleted history leaves no copy behind
    /// (`secure_delete` already zeroes it in the database itself).
    public func checkpoint() {
        try? database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Whether what the next transactions delete is overwritten with zeros
    /// (`secure_delete` ON), as for a stack forgotten or discarded, or only
    /// where that costs no extra writing (FAST, the default: groups that age
    /// out under the limits, whose freed pages compacting reuses or cuts off).
    public func zeroDeletedContent(_ zero: Bool) {
        guard zero != zeroing else { return }
        if (try? database.execute(zero ? "PRAGMA secure_delete = ON" : "PRAGMA secure_delete = FAST")) != nil {
            zeroing = zero
        }
    }

    /// Gives the pages deleted groups freed back to the file system once
    /// they are more than `slack` bytes (outside a transaction), and asks
    /// for the log to be folded back: the files stay near what the history
    /// holds.
    public func reclaim(slack: Int64) {
        guard let free = try? database.integer("PRAGMA freelist_count"),
              let pageSize = try? database.integer("PRAGMA page_size"), free * pageSize > slack else { return }
        // At most 2 MiB a call (each moved page is read and written again),
        // so that no one commit pays for many deletions at once.
        try? database.execute("PRAGMA incremental_vacuum(\(min(free, Self.reclaimBytes / pageSize)))")
        checkpointer?.request()
    }

    /// How much `reclaim` gives back in one call at most.
    static let reclaimBytes: Int64 = 2 << 20
}
