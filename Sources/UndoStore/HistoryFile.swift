#if canImport(Glibc)
import Glibc
#endif
import UndoCore

/// The database file, `history.sqlite3`: private from its first byte,
/// checked before SQLite opens it, then opened in WAL mode with its schema
/// made or migrated up to `version` (`HistoryFile+Migration.swift`), or
/// opened only to read, at whatever version it has.
///
/// Schema 2 added each group's `charged` bytes (what it counts for in the
/// limits) and `checksum`, schema 3 `file`, schema 4 the journal (an
/// undod before it would not read one), schema 5 each stack's `origin`
/// (the program that may adopt it); an older store is migrated on open.
enum HistoryFile {
    /// The current schema version, in `PRAGMA user_version`.
    static let version: Int64 = 5

    /// Creates the file at `path` (0600, never through a link) when it is
    /// missing, so that a new store is private from its first byte: SQLite
    /// would create it 0644 less the umask, and gives its `-wal` and `-shm`
    /// files the database's mode. Not by setting the umask around the open:
    /// the umask belongs to the whole process, so two threads saving and
    /// restoring it interleave and can leave it 0077 for good (the tests'
    /// process, which opens stores on many threads, was found so, its new
    /// folders then closed to the compositors' user).
    static func createPrivately(_ path: String) {
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Refuses, before anything opens it, a store that must be left as it
    /// is: a symbolic link in its place (it is never followed), or a file
    /// that a newer undod wrote (its header's `user_version`, read without
    /// SQLite, which would write to it). Nothing is changed either way.
    static func checkUntouchable(_ path: String) throws(StoreError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        if status.st_mode & S_IFMT == S_IFLNK {
            throw StoreError("\(path) is a symbolic link, which undod does not follow: it is left alone",
                             leftAlone: true)
        }
        let fd = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return }
        defer { Glibc.close(fd) }
        var header = [UInt8](repeating: 0, count: 100)
        let count = header.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, 100) }
        guard count == 100, Array(header.prefix(16)) == Array("SQLite format 3\0".utf8) else { return }
        let found = header[60..<64].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        if found > version {
            throw StoreError("\(path) was written by a newer undod (schema \(found), this one knows \(version)): "
                + "it is left untouched", leftAlone: true)
        }
    }

    /// Opens, configures and migrates; returns the database and whether it
    /// was made now; throws what SQLite said. A new or migrated schema is
    /// folded into the file at once: its version in the file's header is
    /// what an older undod reads to leave the store alone.
    static func open(_ path: String) throws(SQLiteError) -> (SQLiteDatabase, created: Bool) {
        createPrivately(path)
        let database = try SQLiteDatabase(path: path)
        let found = try database.integer("PRAGMA user_version")
        if found > version {
            throw SQLiteError(code: 26 /* SQLITE_NOTADB */, message: "written by a newer undod (schema \(found))")
        }
        // auto_vacuum must be set before the first table of a new file; set
        // on a file that has it, it is a write all the same (SQLite stores
        // it again), and opening a store writes nothing it need not.
        if found < 1 { try database.execute("PRAGMA auto_vacuum = INCREMENTAL") }
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = OFF; "
            + "PRAGMA secure_delete = FAST; PRAGMA journal_size_limit = 16777216;")
        if found < 1 {
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
            if found < 2 { try migrateToVersion2(database) }
            if found < 3 { try migrateToVersion3(database) }
            if found < 4 { try database.execute("PRAGMA user_version = 4") }
            if found < 5 { try migrateToVersion5(database) }
        }
        if found < version { try? database.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        // Reading the schema proves the file is a database we can use.
        _ = try database.integer("SELECT count(*) FROM stacks")
        return (database, found < 1)
    }

    /// What opening the store's database for writing found and did.
    struct Opened {
        /// The database, open.
        let database: SQLiteDatabase
        /// Whether it was made now.
        let created: Bool
        /// Why the file found there was moved aside (nil: it was not).
        let corruption: String?
        /// Where it was moved.
        let movedAside: String?
    }

    /// Opens the store's database for writing (`open`). One that is
    /// corrupt, or an empty file (SQLite would take it for a new database;
    /// undod never leaves one), is moved aside with the store's other files
    /// and a fresh one made. Throws a read-only error when the file cannot
    /// be opened and is not damaged (a disk that fails, say: it is read if
    /// it can be), or when no fresh one can be made.
    static func openReplacingCorrupt(_ files: StoreFiles, now: Int64) throws(StoreError) -> Opened {
        var corruption: String?
        var movedAside: String?
        if files.databaseSize == 0 {
            corruption = "the store is an empty file (0 bytes), not a database undod wrote"
            movedAside = files.moveAside(now: now)
        }
        do {
            let (database, created) = try open(files.database)
            return Opened(database: database, created: created, corruption: corruption, movedAside: movedAside)
        } catch {
            guard error.meansCorrupt else { throw StoreError("cannot open \(files.database): \(error)", readOnly: true) }
            corruption = error.description
            movedAside = files.moveAside(now: now)
        }
        do {
            let (database, created) = try open(files.database)
            return Opened(database: database, created: created, corruption: corruption, movedAside: movedAside)
        } catch {
            let aside = movedAside.map { ", moved aside as \($0)" } ?? ""
            throw StoreError("the store was corrupt (\(corruption ?? "")\(aside)), and a fresh one cannot be "
                + "created at \(files.database): \(error)", readOnly: true)
        }
    }

    /// The database at `path` opened only to read, with its schema
    /// version: SQLite reads the WAL too where it can without writing (the
    /// WAL and its index are there), else the file alone is read, as it is.
    static func openToRead(_ path: String) throws(StoreError) -> (SQLiteDatabase, schema: Int64) {
        do throws(SQLiteError) {
            return try openToRead(path, .readOnly)
        } catch {
            do throws(SQLiteError) {
                return try openToRead(path, .fileAsItIs)
            } catch {
                throw StoreError("cannot read \(path): \(error)", corruption: error.meansCorrupt)
            }
        }
    }

    /// The database at `path` opened for `access` (one of the read-only
    /// ones), with its schema version, once a first read has gone through.
    private static func openToRead(_ path: String, _ access: SQLiteDatabase.Access)
        throws(SQLiteError) -> (SQLiteDatabase, schema: Int64) {
        let database = try SQLiteDatabase(path: path, access: access)
        let schema = try database.integer("PRAGMA user_version")
        guard schema >= 1, schema <= version else {
            throw SQLiteError(code: 26 /* SQLITE_NOTADB */, message: "not a store this undod reads (schema \(schema))")
        }
        _ = try database.integer("SELECT count(*) FROM stacks")
        return (database, schema)
    }
}
