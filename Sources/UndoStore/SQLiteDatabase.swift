internal import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// A SQLite connection: the only place in undod that calls SQLite. Prepared
/// statements are cached by where their SQL text is: every statement is a
/// literal, so finding one costs no hashing of its text.
final class SQLiteDatabase {
    private let handle: OpaquePointer
    private var statements: [UnsafeRawPointer: Statement] = [:]
    /// How a database is opened.
    enum Access {
        /// To read and write, creating it if needed.
        case readWrite
        /// To read only, its write-ahead log included: the database and the
        /// log are never written (the log's shared index may be, where it
        /// can; where it cannot, SQLite builds it in memory).
        case readOnly
        /// To read the database file as it is, without its log.
        case fileAsItIs
    }

    /// Opens the database at `path` for `access`.
    init(path: String, access: Access = .readWrite) throws(SQLiteError) {
        var raw: OpaquePointer?
        let flags = access == .readWrite ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
            : SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
        let name = switch access {
        case .readWrite: path
        case .readOnly: "file:" + Self.uriEscaped(path)
        case .fileAsItIs: "file:" + Self.uriEscaped(path) + "?immutable=1"
        }
        let code = sqlite3_open_v2(name, &raw, flags, nil)
        guard code == SQLITE_OK, let raw else {
            let message = raw.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let raw { sqlite3_close_v2(raw) }
            throw SQLiteError(code: code, message: message)
        }
        handle = raw
        sqlite3_extended_result_codes(handle, 1)
    }

    /// `path` as the path part of a `file:` URI.
    private static func uriEscaped(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            let plain = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || "/-._~".utf8.contains(byte)
            if plain {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
        walHook?.release()
    }

    /// What `onCommit` registered, kept alive for SQLite's callback.
    private final class WALHook {
        let body: (Int32) -> Void
        init(_ body: @escaping (Int32) -> Void) { self.body = body }
    }

    private var walHook: Unmanaged<WALHook>?

    /// Calls `body` after every commit with the pages the write-ahead log
    /// now holds (SQLite's `wal_hook`, which replaces its own automatic
    /// checkpoints: whoever registers this checkpoints).
    func onCommit(_ body: @escaping (Int32) -> Void) {
        walHook?.release()
        let hook = Unmanaged.passRetained(WALHook(body))
        walHook = hook
        sqlite3_wal_hook(handle, { context, _, _, pages in
            if let context { Unmanaged<WALHook>.fromOpaque(context).takeUnretainedValue().body(pages) }
            return SQLITE_OK
        }, hook.toOpaque())
    }

    /// How long a statement waits for a lock another connection holds, at
    /// least. It tries again every 0.2 ms: SQLite's own timeout sleeps 1, 2,
    /// 5, 10, 15 ms… between tries, so a lock held 6 ms cost a waiter 8 ms
    /// and one held 11 ms 18 ms.
    func waitForLocks(milliseconds: Int32) {
        let tries = Int(max(0, milliseconds)) * 5
        sqlite3_busy_handler(handle, { context, count in
            guard Int(count) < Int(bitPattern: context) else { return 0 }
            usleep(200)
            return 1
        }, UnsafeMutableRawPointer(bitPattern: tries))
    }

    /// Runs SQL that returns no rows (may hold several statements).
    func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteError(code: code, message: text)
        }
    }

    /// The prepared statement for `sql`, reset and ready to bind.
    func statement(_ sql: StaticString) throws(SQLiteError) -> Statement {
        let key = UnsafeRawPointer(sql.utf8Start)
        if let cached = statements[key] {
            cached.reset()
            return cached
        }
        var raw: OpaquePointer?
        let code = sql.utf8Start.withMemoryRebound(to: CChar.self, capacity: sql.utf8CodeUnitCount) {
            sqlite3_prepare_v3(handle, $0, Int32(sql.utf8CodeUnitCount), UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil)
        }
        guard code == SQLITE_OK, let raw else { throw error(code) }
        let statement = Statement(raw, database: self)
        statements[key] = statement
        return statement
    }

    /// How a checkpoint treats the writer: SQLite's modes that undod uses.
    enum CheckpointMode {
        /// Copies what it can without taking any lock a writer needs.
        case passive
        /// Takes the writer's lock (waiting for it as `waitForLocks` says;
        /// without it, runs as `passive`), copies everything, and makes the
        /// next commit start the log over.
        case restart
    }

    /// Runs a checkpoint: whether it could not do all it was asked (another
    /// checkpoint ran, or a lock could not be had), how many frames the log
    /// holds, and how many of them are now back in the database.
    func checkpoint(_ mode: CheckpointMode) throws(SQLiteError) -> (busy: Bool, walFrames: Int64, checkpointed: Int64) {
        let statement = switch mode {
        case .passive: try statement("PRAGMA wal_checkpoint(PASSIVE)")
        case .restart: try statement("PRAGMA wal_checkpoint(RESTART)")
        }
        defer { statement.reset() }
        guard try statement.step() else { return (false, 0, 0) }
        return (statement.int64(0) != 0, statement.int64(1), statement.int64(2))
    }

    /// A copy of the whole database in memory, to change without writing
    /// the file (SQLite's online backup).
    func copiedIntoMemory() throws(SQLiteError) -> SQLiteDatabase {
        let copy = try SQLiteDatabase(path: ":memory:")
        guard let backup = sqlite3_backup_init(copy.handle, "main", handle, "main") else {
            throw copy.error(sqlite3_errcode(copy.handle))
        }
        let code = sqlite3_backup_step(backup, -1)
        sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE else { throw error(code) }
        return copy
    }

    /// An integer from a one-row, one-column query (0 when there is no row).
    func integer(_ sql: StaticString) throws(SQLiteError) -> Int64 {
        let statement = try statement(sql)
        defer { statement.reset() }
        return try statement.step() ? statement.int64(0) : 0
    }

    /// The error for `code` with SQLite's message.
    func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)))
    }

    /// One prepared statement: bind, step, read columns.
    final class Statement {
        private let raw: OpaquePointer
        private unowned let database: SQLiteDatabase

        init(_ raw: OpaquePointer, database: SQLiteDatabase) {
            self.raw = raw
            self.database = database
        }

        deinit { sqlite3_finalize(raw) }

        /// Makes the statement ready to run again, bindings cleared.
        func reset() {
            sqlite3_reset(raw)
            sqlite3_clear_bindings(raw)
        }

        /// Binds values to the parameters `?1`, `?2`, … in order.
        @discardableResult
        func bind(_ values: SQLiteValue...) throws(SQLiteError) -> Statement {
            for (offset, value) in values.enumerated() { try bind(value, at: Int32(offset + 1)) }
            return self
        }

        /// Binds a copy of `value` to parameter `index`.
        private func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
            let code: Int32
            switch value {
            case .integer(let v): code = sqlite3_bind_int64(raw, index, v)
            case .text(let s): code = sqlite3_bind_text(raw, index, s, -1, transient)
            case .blob(let bytes):
                // An empty blob must still be a blob, not NULL.
                code = bytes.withUnsafeBytes { buffer in
                    sqlite3_bind_blob(raw, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                                      Int32(buffer.count), transient)
                }
            case .null: code = sqlite3_bind_null(raw, index)
            }
            guard code == SQLITE_OK else { throw database.error(code) }
        }

        /// Binds `values` to `?1`, `?2`, … and runs the statement (no rows),
        /// with every blob bound where it lies instead of copied: SQLite
        /// reads it only while the statement runs, inside the blob's scope,
        /// and the bindings are cleared before that scope ends. For rows
        /// holding megabytes of payload.
        func run(binding values: SQLiteValue...) throws(SQLiteError) {
            defer { sqlite3_clear_bindings(raw) }
            try bindInPlace(values, from: 0)
        }

        private func bindInPlace(_ values: [SQLiteValue], from offset: Int) throws(SQLiteError) {
            guard offset < values.count else { return try run() }
            guard case .blob(let bytes) = values[offset] else {
                try bind(values[offset], at: Int32(offset + 1))
                return try bindInPlace(values, from: offset + 1)
            }
            // (`withUnsafeBytes` rethrows untyped, so the error travels as a Result.)
            let outcome: Result<Void, SQLiteError> = bytes.withUnsafeBytes { buffer in
                // An empty blob must still be a blob, not NULL; nil is SQLITE_STATIC.
                let code = sqlite3_bind_blob(raw, Int32(offset + 1), buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                                             Int32(buffer.count), nil)
                guard code == SQLITE_OK else { return .failure(database.error(code)) }
                return Result { () throws(SQLiteError) in try bindInPlace(values, from: offset + 1) }
            }
            try outcome.get()
        }

        /// Advances to the next row; false when done.
        func step() throws(SQLiteError) -> Bool {
            let code = sqlite3_step(raw)
            switch code {
            case SQLITE_ROW: return true
            case SQLITE_DONE:
                // Finished: release its read transaction at once, so
                // checkpoints are never held back by an idle statement.
                sqlite3_reset(raw)
                return false
            default:
                let error = database.error(code)
                sqlite3_reset(raw)
                throw error
            }
        }

        /// Runs a statement that returns no rows.
        func run() throws(SQLiteError) {
            while try step() {}
        }

        /// The integer in column `column` (0 for NULL).
        func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(raw, column) }

        /// Whether column `column` is NULL.
        func isNull(_ column: Int32) -> Bool { sqlite3_column_type(raw, column) == SQLITE_NULL }

        /// The text in column `column` (`""` for NULL).
        func text(_ column: Int32) -> String {
            guard let pointer = sqlite3_column_text(raw, column) else { return "" }
            return String(cString: pointer)
        }

        /// The bytes in column `column` (empty for NULL or an empty blob).
        func blob(_ column: Int32) -> [UInt8] {
            let count = Int(sqlite3_column_bytes(raw, column))
            guard count > 0, let pointer = sqlite3_column_blob(raw, column) else { return [] }
            return Array(UnsafeRawBufferPointer(start: pointer, count: count))
        }
    }
}

/// SQLite's `SQLITE_TRANSIENT` (a macro Swift cannot import): SQLite copies
/// the bound value before the call returns.
private let transient = unsafeBitCast(Int(-1), to: sqlite3_destructor_type.self)

/// A value bound to a statement parameter.
enum SQLiteValue {
    /// An INTEGER.
    case integer(Int64)
    /// TEXT.
    case text(String)
    /// A BLOB (possibly empty).
    case blob([UInt8])
    /// NULL.
    case null
}

/// A SQLite failure: its result code and message.
struct SQLiteError: Error, CustomStringConvertible {
    /// The (extended) result code.
    let code: Int32
    /// SQLite's message.
    let message: String

    /// Whether the file is not a usable database (corrupt, not a database,
    /// unreadable).
    var meansCorrupt: Bool {
        let primary = code & 0xFF
        return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB || primary == SQLITE_CANTOPEN
    }

    /// Whether another connection held a lock the call needed: a moment
    /// later it may go through.
    var meansBusy: Bool {
        let primary = code & 0xFF
        return primary == SQLITE_BUSY || primary == SQLITE_LOCKED
    }

    var description: String { "\(message) (SQLite error \(code))" }
}
