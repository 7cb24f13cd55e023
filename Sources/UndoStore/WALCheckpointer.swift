import Dispatch

/// Folds the write-ahead log back into the database file on a thread of its
/// own, with a second connection, so that the loop never waits for it.
///
/// SQLite's own automatic checkpoint runs inside the commit that fills the
/// log: it copies every page back and syncs both files while every caller
/// waits (with 1 MiB pushes, 20–40 ms every fourth one). Here a commit that
/// leaves `pagesBeforeCheckpoint` pages or more in the log only asks; the
/// checkpoint is PASSIVE (it never takes the writer's lock, so the loop's
/// commits go on meanwhile) and requests coalesce.
///
/// The log starts over from its beginning (and `journal_size_limit` keeps
/// its file at most 16 MiB) only at a commit that finds everything in it
/// back in the database. While commits keep coming, one pass never gets
/// there: what was committed during it is left. So a request runs passes
/// until one leaves nothing (each copies only what came during the one
/// before), up to `passesPerRequest`.
final class WALCheckpointer: @unchecked Sendable {
    // @unchecked: `connection` is touched only on `queue`.
    private let path: String
    private let queue = DispatchQueue(label: "org.undod.checkpoint")
    private let requests: any DispatchSourceUserDataOr
    private var connection: SQLiteDatabase?

    /// A log this long (4 KiB pages: 1 MiB) asks for a checkpoint.
    static let pagesBeforeCheckpoint: Int32 = 256
    /// How many passes one request runs at most to fold the log back fully.
    static let passesPerRequest = 16

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
        guard let connection else { return }
        for _ in 0..<Self.passesPerRequest {
            guard !requests.isCancelled, let pass = try? connection.checkpointPassively(),
                  !pass.busy, pass.checkpointed < pass.logFrames else { return }
        }
    }

    deinit {
        requests.cancel()
    }
}
