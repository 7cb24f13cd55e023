/// The store's files kept small and its deleted history gone: checkpoints
/// on a thread of their own, zeroing what is deleted for good, giving freed
/// pages back.
extension HistoryDatabase {
    /// Checkpoints from now on happen on the checkpointer's thread, asked
    /// for by a commit that finds the WAL `pagesBeforeCheckpoint` pages
    /// longer than at the last request (or as long, since it started over);
    /// a statement that meets the checkpointer's lock (a TRUNCATE
    /// checkpoint) waits. Asked by every commit past that length, passes
    /// ran back to back under a stream of pushes, each syncing both files
    /// for the few frames committed during the one before: every push,
    /// persistent or not, waited on that disk traffic (`BENCHMARKS.md`,
    /// "A checkpoint per megabyte").
    func attachCheckpointer() {
        checkpointer?.stop()
        let checkpointer = WALCheckpointer(path: path)
        self.checkpointer = checkpointer
        walLong = false
        pagesAtLastRequest = 0
        pagesAtLastCommit = 0
        if let onCaughtUp { checkpointer.onRestarted(onCaughtUp) }
        if let onFoldBackTrouble { checkpointer.onTrouble(onFoldBackTrouble) }
        database.waitForLocks(milliseconds: 5_000)
        database.onCommit { [unowned self] pages in
            walPages = pages
            if pages < pagesAtLastCommit { pagesAtLastRequest = 0 }  // it started over
            pagesAtLastCommit = pages
            if pages >= pagesAtLastRequest + WALCheckpointer.pagesBeforeCheckpoint {
                pagesAtLastRequest = pages
                checkpointsAsked += 1
                checkpointer.request()
            }
        }
        pageSize = (try? database.integer("PRAGMA page_size")) ?? pageSize
    }

    /// The checkpointer folds the WAL back and it starts over (see
    /// `WALCheckpointer`): once the WAL is past `walBytesBeforeRestart`, a
    /// commit asks the checkpointer to make it start over, and large writes
    /// wait until it has (`isCatchingUp`), so that the RESTART has little to
    /// copy while it holds the writer's lock. Only when the WAL has grown
    /// past `walBytesBeforeWaiting(budget:)` anyway (the checkpointer starved
    /// of CPU while commits pile up) does the loop wait for it, right after
    /// a commit, and empty the WAL itself (TRUNCATE): a stall, but the files
    /// stay within their bound.
    func catchUpIfBehind() {
        defer { walPages = 0 }
        let bytes = Int64(walPages) * pageSize
        walLong = bytes >= Self.walBytesBeforeRestart(budget: budget)
        guard walLong else { return }
        guard bytes >= Self.walBytesBeforeWaiting(budget: budget) else {
            if checkpointer?.isRestarting == false { checkpointer?.requestRestart() }
            return
        }
        checkpointer?.waitForCheckpoint()
        try? database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        walLong = false
    }

    /// Whether large writes should wait: the WAL is long and the
    /// checkpointer is making it start over. `onCaughtUp` is called when
    /// that is done (or could not be).
    public var isCatchingUp: Bool {
        walLong && checkpointer?.isRestarting == true
    }

    /// Calls `body`, on the checkpointer's thread, whenever `isCatchingUp`
    /// may have turned false (for a loop to wake and go on).
    public func whenCaughtUp(_ body: @escaping @Sendable () -> Void) {
        onCaughtUp = body
        checkpointer?.onRestarted(body)
    }

    /// Calls `body`, on the checkpointer's thread, when the WAL cannot be
    /// folded back into the database (with why: the disk cannot sync it,
    /// say), and when it can again (nil). Meanwhile nothing is lost: the
    /// WAL keeps every commit, and grows.
    public func whenFoldingBackFails(_ body: @escaping @Sendable (String?) -> Void) {
        onFoldBackTrouble = body
        checkpointer?.onTrouble(body)
    }

    /// How long the WAL may grow before commits ask for it to start over:
    /// half of what makes the loop wait, so that the checkpointer has room
    /// to do it before then.
    package static func walBytesBeforeRestart(budget: UInt64) -> Int64 {
        walBytesBeforeWaiting(budget: budget) / 2
    }

    /// How long the WAL may grow before the loop waits for it, under
    /// `budget`: a quarter of the budget, at least 12 MiB and at most
    /// 64 MiB, and with a small budget no more than 4 MiB over it. The
    /// files' bound (twice the budget plus 16 MiB) holds the database (at
    /// most the budget, what `reclaimSlack` lets wait, a batch of trimmed
    /// rows and SQLite's own pages) and the WAL; the longer the WAL may
    /// grow, the rarer a stall.
    package static func walBytesBeforeWaiting(budget: UInt64) -> Int64 {
        let budget = Int64(clamping: budget)
        return min(64 << 20, max(budget / 4, min(12 << 20, budget + (4 << 20))))
    }

    /// How much freed space may wait to be reused before `reclaim` gives
    /// it back, under `budget`: 4 MiB, or a quarter of the budget up to
    /// 16 MiB. Under a steady stream of pushes what aging out frees is
    /// reused by the next ones; giving it back first moves pages at every
    /// commit.
    package static func reclaimSlack(budget: UInt64) -> Int64 {
        min(16 << 20, max(4 << 20, Int64(clamping: budget / 4)))
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
        guard zero != zeroing else { return }
        if (try? database.execute(zero ? "PRAGMA secure_delete = ON" : "PRAGMA secure_delete = FAST")) != nil {
            zeroing = zero
        }
    }

    /// Gives the pages deleted groups freed back to the file system once
    /// they are more than `reclaimSlack(budget:)` (outside a transaction;
    /// nothing when SQLite deleted nothing since it last looked), and asks
    /// for the WAL to be folded back: the files stay near what the history
    /// holds.
    public func reclaim() {
        guard freedPages else { return }
        freedPages = false
        let slack = Self.reclaimSlack(budget: budget)
        guard let free = try? database.integer("PRAGMA freelist_count"), free * pageSize > slack else { return }
        // At most 2 MiB a call (each moved page is read and written again),
        // so that no one commit pays for many deletions at once.
        try? database.execute("PRAGMA incremental_vacuum(\(min(free, Self.reclaimBytes / pageSize)))")
        checkpointer?.request()
    }

    /// How much `reclaim` gives back in one call at most.
    static let reclaimBytes: Int64 = 2 << 20
}
