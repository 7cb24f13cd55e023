#if canImport(Glibc)
import Glibc
#endif
import UndoCore

/// undod's history on disk: one SQLite database in the state directory,
/// with a journal in front of it.
///
/// The schema carries a version (`PRAGMA user_version`) and migrates
/// forward. Writes happen inside `begin`/`commit`, one transaction per loop
/// turn, and a transaction is one record appended to the journal
/// (`HistoryJournal`, `HistoryDatabase+Journal`): once `commit` returns,
/// the OS has it, and a daemon killed at any moment keeps it. SQLite takes
/// the journal's records in batches, and at the next start what a killed
/// daemon left there; only an OS crash or power loss may take the last
/// few seconds of commits. SQLite runs in WAL mode with `synchronous =
/// NORMAL`, the log folded back by a second connection on a thread of its
/// own (`WALCheckpointer`), never inside a commit.
///
/// Groups are stored without order columns: ids rise along the undo side
/// and on out the redo side, so the id order and the side flag rebuild both.
/// A group's actions are one blob (`ActionCoding`) in its row, with its
/// CRC-32C (`PayloadChecksum`) checked whenever the blob is read back: a
/// push writes one row, and a restart reads none of them. Pages freed by
/// deleted groups go back to the file system (`auto_vacuum = INCREMENTAL`,
/// `reclaim`), and the write-ahead log is kept at most 16 MiB. A stack
/// deleted for good is zeroed (`secure_delete`, and the journal); groups
/// that age out are not (`zeroDeletedContent`).
///
/// A group whose actions came in a large push keeps them in a file of its
/// own instead (`PayloadFiles`): its row's `payload` is empty, `file`
/// names the file, and `checksum` is the file's.
///
/// Schema 2 added each group's `charged` bytes (what it counts for in the
/// limits) and `checksum`, schema 3 `file`, schema 4 the journal (an
/// undod before it would not read one), schema 5 each stack's `origin`
/// (the program that may adopt it); an older store is migrated on open.
public final class HistoryDatabase {
    /// The current schema version.
    static let schemaVersion: Int64 = 5
    /// The database file.
    public let path: String
    /// The journal's file, beside the database.
    let journalPath: String
    /// The directory of the groups kept in files of their own.
    public let payloadFiles: PayloadFiles
    /// Whether large groups may be written to `payloadFiles` (its directory
    /// is one of ours and the store is writable).
    public private(set) var keepsPayloadFiles = false
    /// Where a corrupt or unreadable store was moved, if that happened on open.
    public private(set) var movedAside: String?
    /// Why it was moved aside.
    public private(set) var corruption: String?
    var database: SQLiteDatabase
    /// Folds the write-ahead log back on a thread of its own (nil when only reading).
    var checkpointer: WALCheckpointer?
    /// Whether `secure_delete` is ON now (FAST otherwise).
    var zeroing = false
    /// The journal in front of SQLite (nil when only reading, or when it
    /// cannot be opened: transactions then go to SQLite directly).
    var journal: HistoryJournal?
    /// Whether the transaction begun goes to the journal.
    var journaling = false
    /// The changes of the transaction begun, while it goes to the journal.
    var transaction: [HistoryChange] = []
    /// The changes in the journal that SQLite has not taken yet, in order.
    var unapplied: [HistoryChange] = []
    /// How many records they came in.
    var unappliedRecords = 0
    /// How many records, or bytes, in the journal make SQLite take it (more
    /// after it failed to).
    var applyingAfter = (records: HistoryDatabase.recordsBeforeApplying,
                         bytes: HistoryDatabase.journalBytesBeforeApplying)
    /// Whether SQLite failed to take the journal last time it was asked.
    var applyFailed = false
    /// The epoch of the journal SQLite took last (in `meta`; 0: none yet).
    var appliedEpoch: UInt64 = 0
    /// The buffer a record is encoded in, kept between commits.
    var recordBody: [UInt8] = []
    /// Whether rows were deleted in SQLite since `reclaim` last looked.
    var freedPages = false
    /// What opening the store found in its journal, for the log: each
    /// with whether it says that changes were lost.
    public internal(set) var journalNotes: [(text: String, lost: Bool)] = []
    /// The pages the last commit left in the write-ahead log, until
    /// `catchUpIfBehind` has looked at them.
    var walPages: Int32 = 0
    /// Whether the last commit left the log past `walBytesBeforeRestart`.
    var walLong = false
    /// How long the log was when a commit last asked for a checkpoint (0
    /// once it started over): the next asks only when it has grown by
    /// another `WALCheckpointer.pagesBeforeCheckpoint`.
    var pagesAtLastRequest: Int32 = 0
    /// How long the last commit left the log: a shorter log after it has
    /// started over.
    var pagesAtLastCommit: Int32 = 0
    /// How many checkpoints commits have asked for since the store opened.
    package internal(set) var checkpointsAsked = 0
    /// What `whenCaughtUp` registered, for each checkpointer attached.
    var onCaughtUp: (@Sendable () -> Void)?
    /// Told when the log cannot be folded back, and when it can again.
    var onFoldBackTrouble: (@Sendable (String?) -> Void)?
    /// The database's page size in bytes.
    var pageSize: Int64 = 4_096
    /// The history's budget (`limits.max_total_bytes`): the files stay
    /// within twice it plus 16 MiB, so a larger one lets the log grow
    /// longer and more freed space wait for reuse (`HistoryDatabase+Space`).
    public var budget: UInt64 = 0
    /// The open `lock` file whose lock says this process owns the store
    /// (-1 when only reading).
    private let lockDescriptor: Int32
    /// The schema of the file open (older ones are only read as they are).
    private(set) var schema: Int64 = schemaVersion

    /// Opens (or creates) the store in `directory` and applies what its
    /// journal holds. A store that cannot be read is moved aside as
    /// `…corrupt-<now>` and a fresh one is used. Throws when another
    /// process holds the directory's lock, and a read-only error when the
    /// journal is there but cannot be opened, read or applied (the store
    /// is then only read: `init(readingOnly:)`).
    public convenience init(directory: String, now: Int64) throws(StoreError) {
        try self.init(directory: directory, now: now, journaled: true)
    }

    /// Opens the store as `init(directory:now:)` does; without `journaled`,
    /// with no journal in front of SQLite (for tests of SQLite's own log).
    package init(directory: String, now: Int64, journaled: Bool) throws(StoreError) {
        try StateDirectory.prepare(directory)
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        path = base + "history.sqlite3"
        journalPath = base + "history.journal"
        payloadFiles = PayloadFiles(base: base)
        lockDescriptor = Glibc.open(base + "lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lockDescriptor >= 0 else {
            // Read-only, no permission, full: nothing can be written there.
            throw StoreError("cannot create \(base)lock: \(String(cString: strerror(errno)))", readOnly: true)
        }
        guard flock(lockDescriptor, LOCK_EX | LOCK_NB) == 0 else {
            Glibc.close(lockDescriptor)
            throw StoreError("another undod is already running with the state directory \(directory)")
        }
        do {
            try Self.checkUntouchable(path)
        } catch {
            Glibc.close(lockDescriptor)
            throw error
        }
        var status = stat()
        if stat(path, &status) == 0, status.st_size == 0 {
            // SQLite would take it for a new database; undod never leaves one.
            corruption = "the store is an empty file (0 bytes), not a database undod wrote"
            movedAside = Self.moveAside(path, journalPath, with: payloadFiles, now: now)
        }
        var created: Bool
        do {
            (database, created) = try Self.open(path)
        } catch {
            // Not a damaged file (a disk that fails, say): it is read if it can be.
            guard error.meansCorrupt else { throw StoreError("cannot open \(path): \(error)", readOnly: true) }
            corruption = error.description
            movedAside = Self.moveAside(path, journalPath, with: payloadFiles, now: now)
            do {
                (database, created) = try Self.open(path)
            } catch {
                let aside = movedAside.map { ", moved aside as \($0)" } ?? ""
                throw StoreError("the store was corrupt (\(corruption ?? "")\(aside)), and a fresh one cannot be "
                    + "created at \(path): \(error)", readOnly: true)
            }
        }
        for suffix in ["", "-wal", "-shm"] { _ = chmod(path + suffix, 0o600) }
        keepsPayloadFiles = payloadFiles.prepare()
        do {
            if journaled { try openJournal(now: now, databaseIsNew: created) }
        } catch where error.isCorruption {
            try startFresh(now: now, because: error.description)
            return
        } catch where error.isReadOnly {
            throw error
        } catch {
            // The journal stays as it is: the store is only read (with it) until it can be applied.
            throw StoreError("what the journal holds cannot be applied (\(error)), so the store is only read",
                             readOnly: true)
        }
        attachCheckpointer()
    }

    /// Opens the store in a directory that cannot be written, to read it
    /// as it is: its stacks and counters, never a write. Nil when there is
    /// no store there. A store left by a crash holds its last commits in
    /// its journal and the write-ahead log: SQLite reads the log too where
    /// it can without writing (the log and its index are there), else the
    /// file alone is read, as it is; the journal is applied to a copy of
    /// the database in memory.
    public init?(readingOnly directory: String) throws(StoreError) {
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        path = base + "history.sqlite3"
        journalPath = base + "history.journal"
        payloadFiles = PayloadFiles(base: base)
        lockDescriptor = -1
        var status = stat()
        guard stat(path, &status) == 0, status.st_size > 0 else { return nil }
        do throws(SQLiteError) {
            (database, schema) = try Self.openToRead(path, .readOnly)
        } catch {
            do throws(SQLiteError) {
                (database, schema) = try Self.openToRead(path, .fileAsItIs)
            } catch {
                throw StoreError("cannot read \(path): \(error)", corruption: error.meansCorrupt)
            }
        }
        do throws(SQLiteError) {
            try readJournal()
        } catch {
            throw StoreError("cannot read \(path) with its journal: \(error)", corruption: error.meansCorrupt)
        }
    }

    /// The database at `path` opened for `access` (one of the read-only
    /// ones), with its schema version, once a first read has gone through.
    private static func openToRead(_ path: String, _ access: SQLiteDatabase.Access)
        throws(SQLiteError) -> (SQLiteDatabase, Int64) {
        let database = try SQLiteDatabase(path: path, access: access)
        let schema = try database.integer("PRAGMA user_version")
        guard schema >= 1, schema <= Self.schemaVersion else {
            throw SQLiteError(code: 26 /* SQLITE_NOTADB */, message: "not a store this undod reads (schema \(schema))")
        }
        _ = try database.integer("SELECT count(*) FROM stacks")
        return (database, schema)
    }

    deinit {
        checkpointer?.stop()
        if lockDescriptor >= 0 { Glibc.close(lockDescriptor) }
    }

    /// Opens, configures and migrates; returns the database and whether it
    /// was made now; throws what SQLite said. A new or migrated schema is
    /// folded into the file at once: its version in the file's header is
    /// what an older undod reads to leave the store alone.
    private static func open(_ path: String) throws(SQLiteError) -> (SQLiteDatabase, created: Bool) {
        createPrivately(path)
        let database = try SQLiteDatabase(path: path)
        let version = try database.integer("PRAGMA user_version")
        if version > schemaVersion {
            throw SQLiteError(code: 26 /* SQLITE_NOTADB */, message: "written by a newer undod (schema \(version))")
        }
        // auto_vacuum must be set before the first table of a new file; set
        // on a file that has it, it is a write all the same (SQLite stores
        // it again), and opening a store writes nothing it need not.
        if version < 1 { try database.execute("PRAGMA auto_vacuum = INCREMENTAL") }
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = OFF; "
            + "PRAGMA secure_delete = FAST; PRAGMA journal_size_limit = 16777216;")
        if version < 1 {
            try database.execute("""
                BEGIN;
                CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
                CREATE TABLE stacks (
                  number INTEGER PRIMARY KEY, app_id TEXT NOT NULL, document TEXT NOT NULL, title TEXT NOT NULL,
                  levels INTEGER NOT NULL, max_bytes INTEGER NOT NULL, global_trigger INTEGER NOT NULL,
                  detached_since INTEGER, base_id INTEGER NOT NULL, base_tag TEXT NOT NULL,
                  clean_id INTEGER, top_mergeable INTEGER NOT NULL, origin TEXT NOT NULL DEFAULT '');
                CREATE TABLE groups (
                  id INTEGER PRIMARY KEY, stack INTEGER NOT NULL, redo INTEGER NOT NULL, name TEXT NOT NULL,
                  time INTEGER NOT NULL, merge_key TEXT NOT NULL, state_tag TEXT NOT NULL, bytes INTEGER NOT NULL,
                  payload BLOB NOT NULL, charged INTEGER NOT NULL, checksum INTEGER NOT NULL,
                  file TEXT NOT NULL DEFAULT '');
                PRAGMA user_version = 5;
                COMMIT;
                """)
        } else {
            if version < 2 { try migrateToVersion2(database) }
            if version < 3 { try migrateToVersion3(database) }
            if version < 4 { try database.execute("PRAGMA user_version = 4") }
            if version < 5 { try migrateToVersion5(database) }
        }
        if version < schemaVersion { try? database.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        // Reading the schema proves the file is a database we can use.
        _ = try database.integer("SELECT count(*) FROM stacks")
        return (database, version < 1)
    }

    /// Moves a store found corrupt while reading aside and starts a fresh
    /// one in its place.
    public func startFresh(now: Int64, because reason: String) throws(StoreError) {
        checkpointer?.stop()
        checkpointer = nil
        journal = nil
        transaction.removeAll()
        unapplied.removeAll()
        unappliedRecords = 0
        applyingAfter = (Self.recordsBeforeApplying, Self.journalBytesBeforeApplying)
        applyFailed = false
        appliedEpoch = 0
        database = try Self.placeholder()
        corruption = reason
        movedAside = Self.moveAside(path, journalPath, with: payloadFiles, now: now)
        do {
            database = try Self.open(path).0
        } catch {
            throw StoreError("cannot create a fresh store at \(path): \(error)")
        }
        zeroing = false
        for suffix in ["", "-wal", "-shm"] { _ = chmod(path + suffix, 0o600) }
        keepsPayloadFiles = payloadFiles.prepare()
        try openJournal(now: now, databaseIsNew: true)
        attachCheckpointer()
    }

    /// An in-memory database that holds the place while files move.
    private static func placeholder() throws(StoreError) -> SQLiteDatabase {
        do { return try SQLiteDatabase(path: ":memory:") } catch { throw StoreError("\(error)") }
    }

    /// Renames the store's files (its journal and its payload files'
    /// directory too) to `…corrupt-<now>`; returns the database's new path.
    private static func moveAside(_ path: String, _ journal: String, with payloads: PayloadFiles,
                                  now: Int64) -> String {
        let target = "\(path).corrupt-\(now)"
        for suffix in ["", "-wal", "-shm"] { _ = rename(path + suffix, target + suffix) }
        _ = rename(journal, "\(journal).corrupt-\(now)")
        payloads.moveAside(now: now)
        return target
    }

    // MARK: Errors

    /// Runs a read, its SQLite error made a `StoreError` (marked corrupt
    /// when SQLite says the file is).
    func reading<T>(_ body: () throws(SQLiteError) -> T) throws(StoreError) -> T {
        // SQLite takes the journal first. Where it cannot (the disk is
        // full), the read sees the journal applied in a transaction that
        // is rolled back after it.
        var uncommitted = false
        if !unapplied.isEmpty, applyFailed || (try? applyJournal()) == nil {
            try writing { () throws(SQLiteError) in
                try database.statement("BEGIN").run()
                do throws(SQLiteError) {
                    for change in unapplied { try change.apply(to: database) }
                } catch {
                    try? database.execute("ROLLBACK")
                    throw error
                }
            }
            uncommitted = true
        }
        defer { if uncommitted { try? database.execute("ROLLBACK") } }
        do {
            return try body()
        } catch {
            throw StoreError(error.meansCorrupt ? "the store is corrupt: \(error)" : "\(error)", corruption: error.meansCorrupt)
        }
    }

    /// Runs a write, its SQLite error made a `StoreError` that says what went wrong.
    func writing<T>(_ body: () throws(SQLiteError) -> T) throws(StoreError) -> T {
        do { return try body() } catch { throw StoreError(Self.explain(error), corruption: error.meansCorrupt) }
    }

    private static func explain(_ error: SQLiteError) -> String {
        let primary = error.code & 0xFF
        if primary == 13 { return "the disk is full" }
        if primary == 8 { return "the store is read-only" }
        return error.description
    }
}
