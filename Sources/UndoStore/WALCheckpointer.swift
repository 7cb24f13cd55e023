import Dispatch

/// Folds the write-ahead log back into the database file on a thread of its
/// own, with a second connection, so that the loop never waits for it.
///
/// SQLite's own automatic checkpoint runs inside the commit that fills the
/// log: it copies every page back and syncs both files while every caller
/// waits (with 1 MiB pushes, 20–40 ms every fourth one). Here a commit that
/// leaves `pagesBeforeCheckpoint` pages or more in the log only asks; the
/// checkpoint is PASSIVE (it never takes the writer's lock, so the loop's
/// commits go on meanwhile), requests coalesce, and the log starts over
/// from its beginning once everything in it is back in the database
/// (`journal_size_limit` keeps its file at most 16 MiB then).
final class WALCheckpointer: @unchecked Sendable {
    // @unchecked: `connection` is touched only on `queue`.
    private let path: String
    private let queue = DispatchQueue(label: "org.undod.checkpoint")
    private let requests: any DispatchSourceUserDataOr
    private var connection: SQLiteDatabase?

    /// A log this long (4 KiB pages: 1 MiB) asks for a checkpoint.
    static let pagesBeforeCheckpoint: Int32 = 256
    /// A log this long (8 MiB) has the loop fold back what is left itself
    /// (`HistoryDatabase.catchUpIfBehind`), so that the log can start over.
    static let pagesBeforeCatchUp: Int32 = 2_048
    /// A log this long (12 MiB) while the checkpointer still runs has the
    /// loop wait for it and empty the log (`HistoryDatabase.catchUpIfBehind`):
    /// a PASSIVE checkpoint gives up at once while another one runs, and the
    /// store's files must stay within twice the budget plus 16 MiB.
    static let pagesBeforeWaiting: Int32 = 3_072

    /// A checkpointer for the database at `path`, which must exist.
    init(path: String) {
        self.path = path
        requests = DispatchSource.makeUserDataOrSource(queue: queue)
        requests.setEventHandler { [unowned self] in self.checkpoint() }
        requests.activate()
    }

    /// Asks for a checkpoint soon; several requests before it runs make one.
    func request() {
        requests.or(data: 1)
    }

    /// Waits until a checkpoint under way (if any) has finished.
    func waitForCheckpoint() {
        queue.sync {}
    }

    /// Waits for a checkpoint under way, then closes the connection; no
    /// checkpoint runs after this.
    func stop() {
        requests.cancel()
        queue.sync { connection = nil }
    }

    private func checkpoint() {
        guard !requests.isCancelled else { return }
        if connection == nil { connection = try? SQLiteDatabase(path: path) }
        try? connection?.execute("PRAGMA wal_checkpoint(PASSIVE)")
    }

    deinit {
        requests.cancel()
    }
}
