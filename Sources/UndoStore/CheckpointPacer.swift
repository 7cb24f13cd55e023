/// When the write-ahead log (the WAL) is folded back into the database, and
/// when the loop waits for it: the commits' side of `WALCheckpointer`.
///
/// Checkpoints happen on the checkpointer's thread, asked for by a commit
/// that finds the WAL `WALCheckpointer.pagesBeforeCheckpoint` pages longer
/// than at the last request (or as long, since it started over); a
/// statement that meets the checkpointer's lock (a TRUNCATE checkpoint)
/// waits. Asked by every commit past that length, passes ran back to back
/// under a stream of pushes, each syncing both files for the few frames
/// committed during the one before: every push, persistent or not, waited
/// on that disk traffic (`BENCHMARKS.md`, "A checkpoint per megabyte").
///
/// Once the WAL is past `walBytesBeforeRestart`, a commit asks the
/// checkpointer to make it start over, and large writes wait until it has
/// (`isCatchingUp`), so that the RESTART has little to copy while it holds
/// the writer's lock. Only when the WAL has grown past
/// `walBytesBeforeWaiting(budget:)` anyway (the checkpointer starved of CPU
/// while commits pile up) does the loop wait for it, right after a commit,
/// and empty the WAL itself (TRUNCATE): a stall, but the files stay within
/// their bound.
final class CheckpointPacer {
    /// Folds the WAL back on a thread of its own (nil when none is attached).
    private var checkpointer: WALCheckpointer?
    /// The pages the last commit left in the WAL, until `catchUpIfBehind`
    /// has looked at them.
    private var walPages: Int32 = 0
    /// Whether the last commit left the WAL past `walBytesBeforeRestart`.
    private var walLong = false
    /// How long the WAL was when a commit last asked for a checkpoint (0
    /// once it started over): the next asks only when it has grown by
    /// another `WALCheckpointer.pagesBeforeCheckpoint`.
    private var pagesAtLastRequest: Int32 = 0
    /// How long the last commit left the WAL: a shorter WAL after it has
    /// started over.
    private var pagesAtLastCommit: Int32 = 0
    /// How many checkpoints commits have asked for since the store opened.
    private(set) var checkpointsAsked = 0
    /// What `whenCaughtUp` registered, for each checkpointer attached.
    private var onCaughtUp: (@Sendable () -> Void)?
    /// Told when the WAL cannot be folded back, and when it can again.
    private var onFoldBackTrouble: (@Sendable (String?) -> Void)?

    /// Has a new checkpointer fold back the WAL of `database` (the file at
    /// `path`), asked for by `database`'s commits from now on.
    func attach(to database: SQLiteDatabase, path: String) {
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
    }

    /// Stops the checkpointer, once a checkpoint under way has finished.
    func stop() {
        checkpointer?.stop()
        checkpointer = nil
    }

    /// Asks for a checkpoint soon.
    func request() {
        checkpointer?.request()
    }

    /// After a commit: asks for the WAL of `database` to start over once it
    /// is long, and waits for it past `walBytesBeforeWaiting(budget:)`, for
    /// pages of `pageSize` bytes.
    func catchUpIfBehind(_ database: SQLiteDatabase, pageSize: Int64, budget: UInt64) {
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
    /// checkpointer is making it start over. `whenCaughtUp`'s body is
    /// called when that is done (or could not be).
    var isCatchingUp: Bool {
        walLong && checkpointer?.isRestarting == true
    }

    /// Calls `body`, on the checkpointer's thread, whenever `isCatchingUp`
    /// may have turned false (for a loop to wake and go on).
    func whenCaughtUp(_ body: @escaping @Sendable () -> Void) {
        onCaughtUp = body
        checkpointer?.onRestarted(body)
    }

    /// Calls `body`, on the checkpointer's thread, when the WAL cannot be
    /// folded back into the database (with why: the disk cannot sync it,
    /// say), and when it can again (nil). Meanwhile nothing is lost: the
    /// WAL keeps every commit, and grows.
    func whenFoldingBackFails(_ body: @escaping @Sendable (String?) -> Void) {
        onFoldBackTrouble = body
        checkpointer?.onTrouble(body)
    }

    /// How long the WAL may grow before commits ask for it to start over:
    /// half of what makes the loop wait, so that the checkpointer has room
    /// to do it before then.
    static func walBytesBeforeRestart(budget: UInt64) -> Int64 {
        walBytesBeforeWaiting(budget: budget) / 2
    }

    /// How long the WAL may grow before the loop waits for it, under
    /// `budget`: a quarter of the budget, at least 12 MiB and at most
    /// 64 MiB, and with a small budget no more than 4 MiB over it. The
    /// files' bound (twice the budget plus 16 MiB) holds the database (at
    /// most the budget, what `HistoryDatabase.reclaimSlack` lets wait, a
    /// batch of trimmed rows and SQLite's own pages) and the WAL; the
    /// longer the WAL may grow, the rarer a stall.
    static func walBytesBeforeWaiting(budget: UInt64) -> Int64 {
        let budget = Int64(clamping: budget)
        return min(64 << 20, max(budget / 4, min(12 << 20, budget + (4 << 20))))
    }
}
