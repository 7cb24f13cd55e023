import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Locking

/// Folds the write-ahead log (the WAL: "log" in this package is the
/// logger) back into the database file on a thread of its
/// own, with a second connection, so that the loop never waits for it.
///
/// SQLite's own automatic checkpoint runs inside the commit that fills the
/// WAL: it copies every page back and syncs both files while every caller
/// waits (with 1 MiB pushes, 20–40 ms every fourth one). Here a commit that
/// finds the WAL `pagesBeforeCheckpoint` pages longer than when it was last
/// asked for only asks (`CheckpointPacer`); the
/// checkpoint is PASSIVE (it never takes the writer's lock, so the loop's
/// commits go on meanwhile) and requests coalesce.
///
/// The WAL starts over from its beginning (and `journal_size_limit` keeps
/// its file at most 16 MiB) only at a commit that finds everything in it
/// back in the database. While commits keep coming, no pass gets there:
/// what was committed during it is left. So a request runs passes while the
/// one before found more than `settledFrames` new frames, up to
/// `passesPerRequest`; and once the WAL is long the loop asks for it to
/// start over (`requestRestart`) and holds large writes back
/// (`isRestarting`). Then passes go on until one finds that nothing was
/// committed since the one before began: all of the WAL is back, and the
/// next commit starts it over. Only if small calls keep committing through
/// `unlockedPasses` passes does a RESTART checkpoint take the writer's lock
/// (a commit waits for it) to copy what they wrote. Either way
/// `onRestarted` tells the loop to go on.
///
/// A pass that fails (the disk cannot sync the database) leaves the WAL as
/// it is, so nothing is lost; the WAL then grows until a pass succeeds.
/// `onTrouble` hears when passes start failing, and when they work again.
final class WALCheckpointer: @unchecked Sendable {
    // @unchecked: `connection` and `trouble` are touched only on `queue`.
    private let path: String
    private let queue = DispatchQueue(label: "org.undod.checkpoint")
    private let requests: any DispatchSourceUserDataOr
    private var connection: SQLiteDatabase?
    /// Why the last pass failed; nil once one succeeds.
    private var trouble: String?
    /// What the loop and the checkpointer's thread share.
    private struct Shared {
        /// Whether the loop asked for the WAL to start over, until the
        /// RESTART checkpoint has been tried.
        var restartWanted = false
        /// Called on the checkpointer's thread once it has been tried.
        var onRestarted: (@Sendable () -> Void)?
        /// Called on the checkpointer's thread when passes start failing
        /// (with why) and when they work again (nil).
        var onTrouble: (@Sendable (String?) -> Void)?
    }
    private let shared = Lock(Shared())

    /// A WAL this much longer than at the last request (4 KiB pages: 1 MiB)
    /// asks for a checkpoint.
    static let pagesBeforeCheckpoint: Int32 = 256
    /// How many passes one request runs at most to fold the WAL back fully.
    static let passesPerRequest = 16
    /// How many passes a restart tries before it takes the writer's lock.
    static let unlockedPasses = 8
    /// A pass that finds no more new frames than this (1 MiB) is the last
    /// of a request.
    static let settledFrames: Int64 = 256
    /// How long the RESTART checkpoint waits for a commit under way to end
    /// before it settles for a passive pass (ms).
    static let restartWaitMilliseconds: Int32 = 200

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

    /// Asks for a checkpoint that also makes the WAL start over at the next
    /// commit (the WAL is long).
    func requestRestart() {
        shared.withLock { $0.restartWanted = true }
        requests.or(data: 1)
    }

    /// Whether a restart was asked for and not yet tried: what the loop
    /// commits meanwhile is what the RESTART must copy holding the lock.
    var isRestarting: Bool {
        shared.withLock { $0.restartWanted }
    }

    /// Calls `body` (on the checkpointer's thread) each time a restart that
    /// was asked for has been tried, whether or not it got the lock.
    func onRestarted(_ body: @escaping @Sendable () -> Void) {
        shared.withLock { $0.onRestarted = body }
    }

    /// Calls `body` (on the checkpointer's thread) when passes start
    /// failing, with why, and when they work again, with nil.
    func onTrouble(_ body: @escaping @Sendable (String?) -> Void) {
        shared.withLock { $0.onTrouble = body }
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
        // A restart asked for is always answered, so the loop never holds
        // large writes back for one that cannot happen.
        defer { restartTried() }
        guard !requests.isCancelled else { return }
        if connection == nil {
            do {
                connection = try SQLiteDatabase(path: path)
            } catch {
                return note("cannot open the database a second time: \(error)")
            }
            connection?.waitForLocks(milliseconds: Self.restartWaitMilliseconds)
        }
        guard let connection else { return }
        // Each pass copies what was committed during the one before; they
        // go on while that was more than `settledFrames`.
        var frames: Int64 = 0
        for _ in 0..<Self.passesPerRequest {
            guard !requests.isCancelled, let pass = pass(connection, .passive), !pass.busy else { break }
            let grown = pass.walFrames - frames  // under 0: the WAL started over
            frames = pass.walFrames
            guard grown > Self.settledFrames else { break }
        }
        guard !requests.isCancelled, isRestarting, !foldsBackUnlocked(connection) else { return }
        _ = pass(connection, .restart)
    }

    /// One checkpoint pass; nil when it failed (noted for `onTrouble`, but
    /// for a lock another connection held, which is no trouble).
    private func pass(_ connection: SQLiteDatabase,
                      _ mode: SQLiteDatabase.CheckpointMode) -> (busy: Bool, walFrames: Int64, checkpointed: Int64)? {
        do {
            let result = try connection.checkpoint(mode)
            note(nil)
            return result
        } catch {
            if !error.meansBusy { note("\(error)") }
            return nil
        }
    }

    /// Tells `onTrouble` when passes start failing, or work again.
    private func note(_ problem: String?) {
        guard problem != trouble else { return }
        trouble = problem
        shared.withLock { $0.onTrouble }?(problem)
    }

    /// Large writes wait from the moment a restart is asked for, so only
    /// small commits add to the WAL: passes go on until one finds nothing
    /// committed since the pass before it began (everything is back in the
    /// database, and the next commit starts the WAL over), up to
    /// `unlockedPasses`; whether one did. A RESTART holds the writer's lock
    /// while it syncs both files (8-22 ms on a busy disk), and every commit
    /// waits that long.
    private func foldsBackUnlocked(_ connection: SQLiteDatabase) -> Bool {
        var frames: Int64 = -1  // no pass yet
        for _ in 0..<Self.unlockedPasses {
            guard !requests.isCancelled else { return false }
            guard let pass = pass(connection, .passive), !pass.busy else {
                // The WAL is being started over or checkpointed by the loop: a moment later.
                usleep(500)
                continue
            }
            // Fewer frames than before: a commit found it all back and started it over.
            if pass.walFrames < frames { return true }
            if pass.walFrames == frames, pass.checkpointed == frames { return true }
            frames = pass.walFrames
        }
        return false
    }

    private func restartTried() {
        let wake = shared.withLock { shared -> (@Sendable () -> Void)? in
            guard shared.restartWanted else { return nil }
            shared.restartWanted = false
            return shared.onRestarted
        }
        wake?()
    }

    deinit {
        requests.cancel()
    }
}
