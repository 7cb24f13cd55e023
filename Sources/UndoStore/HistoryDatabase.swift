/// undod's history on disk: one SQLite database in the state directory
/// (`StoreFiles`; its schema versioned and migrated forward, `HistoryFile`),
/// with a journal in front of it. Writes happen inside `begin`/`commit`,
/// one transaction per loop turn, appended to the journal as one record
/// (`JournalWriter`): once `commit` returns, the OS has it, a daemon killed
/// at any moment keeps it, and the next start applies it
/// (`JournalRecovery`); only an OS crash or power loss may take the last
/// few seconds of commits. SQLite runs in WAL mode with `synchronous =
/// NORMAL`, the WAL folded back off the loop (`CheckpointPacer`).
///
/// Groups are stored without order columns: ids rise along the undo side
/// and on out the redo side, so the id order and the side flag rebuild both.
/// A group's actions are one blob (`ActionCoding`) in its row, with its
/// CRC-32C (`PayloadChecksum`) checked whenever the blob is read back: a
/// push writes one row, and a restart reads none of them. A group whose
/// actions came in a large push keeps them in a file of its own instead
/// (`PayloadFiles`): its row's `payload` is empty, `file` names the file,
/// and `checksum` is the file's. A stack deleted for good is zeroed, and
/// the pages deleted groups freed go back to the file system
/// (`DeletedSpace`).
public final class HistoryDatabase {
    /// The store's files, and its directory's lock.
    let files: StoreFiles
    /// The database file.
    public var path: String { files.database }
    /// The directory of the groups kept in files of their own.
    public var payloadFiles: PayloadFiles { files.payloadFiles }
    /// Whether large groups may be written to `payloadFiles` (its directory
    /// is one of ours and the store is writable).
    public private(set) var keepsPayloadFiles = false
    /// Where a corrupt or unreadable store was moved, if that happened on open.
    public private(set) var movedAside: String?
    /// Why it was moved aside.
    public private(set) var corruption: String?
    var database: SQLiteDatabase
    /// When the write-ahead log is folded back, and when the loop waits for it.
    let checkpointPacer = CheckpointPacer()
    /// What deletions leave in the file: zeroed, or given back.
    var deletedSpace = DeletedSpace()
    /// The transactions' way to the journal (with no journal, when only
    /// reading or when it cannot be opened: transactions then go to SQLite
    /// directly).
    var journalWriter = JournalWriter()
    /// What opening the store found in its journal.
    var journalRecovery: JournalRecovery
    /// What opening the store found in its journal, for the log: each
    /// with whether it says that changes were lost.
    public var journalNotes: [(text: String, lost: Bool)] { journalRecovery.notes }
    /// The database's page size in bytes.
    var pageSize: Int64 = 4_096
    /// The history's budget (`limits.max_total_bytes`): the files stay
    /// within twice it plus 16 MiB, so a larger one lets the WAL grow
    /// longer and more freed space wait for reuse (`HistoryDatabase+Space`).
    public var budget: UInt64 = 0
    /// The schema of the file open (older ones are only read as they are).
    private(set) var schema: Int64 = HistoryFile.version

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
    /// with no journal in front of SQLite (for tests of SQLite's own WAL).
    package init(directory: String, now: Int64, journaled: Bool) throws(StoreError) {
        try StateDirectory.prepare(directory)
        files = StoreFiles(in: directory)
        journalRecovery = JournalRecovery(path: files.journal, payloadFiles: files.payloadFiles)
        try files.lock()
        do {
            try HistoryFile.checkUntouchable(files.database)
        } catch {
            files.unlock()
            throw error
        }
        let opened = try HistoryFile.openReplacingCorrupt(files, now: now)
        database = opened.database
        corruption = opened.corruption
        movedAside = opened.movedAside
        files.makePrivate()
        keepsPayloadFiles = payloadFiles.prepare()
        do {
            if journaled { try openJournal(now: now, databaseIsNew: opened.created) }
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
    /// its journal and the write-ahead log: SQLite reads the WAL too where
    /// it can without writing (the WAL and its index are there), else the
    /// file alone is read, as it is; the journal is applied to a copy of
    /// the database in memory.
    public init?(readingOnly directory: String) throws(StoreError) {
        files = StoreFiles(in: directory)
        journalRecovery = JournalRecovery(path: files.journal, payloadFiles: files.payloadFiles)
        guard let size = files.databaseSize, size > 0 else { return nil }
        (database, schema) = try HistoryFile.openToRead(files.database)
        do throws(SQLiteError) {
            database = try journalRecovery.read(onto: database, schema: schema)
        } catch {
            throw StoreError("cannot read \(path) with its journal: \(error)", corruption: error.meansCorrupt)
        }
    }

    deinit {
        checkpointPacer.stop()
        files.unlock()
    }

    /// Moves a store found corrupt while reading aside and starts a fresh
    /// one in its place.
    public func startFresh(now: Int64, because reason: String) throws(StoreError) {
        checkpointPacer.stop()
        journalWriter = JournalWriter()
        // An in-memory database holds the place while the files move.
        do { database = try SQLiteDatabase(path: ":memory:") } catch { throw StoreError("\(error)") }
        corruption = reason
        movedAside = files.moveAside(now: now)
        do {
            database = try HistoryFile.open(path).0
        } catch {
            throw StoreError("cannot create a fresh store at \(path): \(error)")
        }
        deletedSpace.databaseOpened()
        files.makePrivate()
        keepsPayloadFiles = payloadFiles.prepare()
        try openJournal(now: now, databaseIsNew: true)
        attachCheckpointer()
    }

    /// Runs a read, its SQLite error made a `StoreError` (marked corrupt
    /// when SQLite says the file is).
    func reading<T>(_ body: () throws(SQLiteError) -> T) throws(StoreError) -> T {
        // SQLite takes the journal first. Where it cannot (the disk is
        // full), the read sees the journal applied in a transaction that
        // is rolled back after it.
        var uncommitted = false
        if !journalWriter.unapplied.isEmpty, journalWriter.applyFailed || (try? applyJournal()) == nil {
            try writing { () throws(SQLiteError) in try journalWriter.applyUncommitted(to: database) }
            uncommitted = true
        }
        defer { if uncommitted { try? database.execute("ROLLBACK") } }
        do { return try body() } catch { throw StoreError(reading: error) }
    }

    /// Runs a write, its SQLite error made a `StoreError` that says what went wrong.
    func writing<T>(_ body: () throws(SQLiteError) -> T) throws(StoreError) -> T {
        do { return try body() } catch { throw StoreError(writing: error) }
    }
}
