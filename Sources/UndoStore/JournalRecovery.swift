#if canImport(Glibc)
import Glibc
#endif
import SystemCalls

/// What opening the store finds in its journal (`HistoryJournal`): the
/// records a killed undod left there, to go on top of the database before
/// anything else. A damaged end is left out, a journal the database took
/// already is emptied, and one that does not follow the database is set
/// aside, with the payload files only it names, for a person to look at.
/// Each of these is a note for the log (`notes`).
struct JournalRecovery {
    /// The journal's file.
    let path: String
    /// The store's payload files.
    let payloadFiles: PayloadFiles
    /// What it found, each with whether it says that changes were lost.
    private(set) var notes: [(text: String, lost: Bool)] = []

    /// The journal opened for writing, with what it holds that the
    /// database has not taken.
    struct Opened {
        /// The journal.
        let file: HistoryJournal
        /// The epoch of the journal the database took last.
        let appliedEpoch: UInt64
        /// The changes it holds that the database has not taken, in order.
        let changes: [HistoryChange]
        /// How many records they came in.
        let records: Int
    }

    /// A recovery of the journal at `path`, beside `payloadFiles`.
    init(path: String, payloadFiles: PayloadFiles) {
        self.path = path
        self.payloadFiles = payloadFiles
    }

    /// Opens the journal, what it holds read on top of the database
    /// `rows` reads; nil when none can be made (every transaction then
    /// goes to SQLite directly). Throws a read-only error when one is
    /// there that cannot be opened or read (a link, never followed,
    /// included), or one to set aside that cannot be: it may hold answered
    /// changes, so the store is only read. (`settingAside`: this call
    /// follows a set-aside, and will not make another.)
    mutating func open(now: Int64, databaseIsNew: Bool, rows: HistoryRows,
                       settingAside: Bool = false) throws(StoreError) -> Opened? {
        let journal: HistoryJournal
        do {
            journal = try HistoryJournal(path: path)
        } catch {
            var status = stat()
            guard lstat(path, &status) != 0 else {
                throw StoreError("\(error), and it may hold changes the database does not: the store is only read",
                                 readOnly: true)
            }
            notes.append(("\(error); every change is written to the database directly", false))
            return nil
        }
        guard let contents = journal.read() else {
            throw StoreError("cannot read \(path), which may hold changes the database does not: the store is only read",
                             readOnly: true)
        }
        let applied: UInt64
        do { applied = try rows.appliedEpoch() } catch { throw StoreError(reading: error) }
        let changes: [HistoryChange]
        switch contents.epoch {
        case .some(let epoch) where epoch == applied + 1 && !databaseIsNew:
            changes = self.changes(in: contents, after: applied) ?? []
        case .some(let epoch) where epoch <= applied:
            changes = []  // SQLite has taken it already
        case _ where contents.bodies.isEmpty && contents.leftOut == 0:
            changes = []  // a new file, or one that holds no record
        default:
            // Not ours, beside a database made anew, or following changes
            // the database never got (an OS crash took them): kept for a
            // person to look at, never applied on top of the wrong state.
            let why = databaseIsNew ? "the database is new"
                : "its epoch is \(contents.epoch.map { "\($0)" } ?? "unreadable"), the database took \(applied) last"
            let aside = Self.unusedName(path + ".set-aside-\(now)")
            guard !settingAside, case .success = SystemCall.rename(path, to: aside) else {
                // Written around, it could come to match later and be applied out of order.
                throw StoreError("the journal \(path) does not go on top of this database (\(why)) and cannot be set "
                    + "aside: the store is only read until it is moved away", readOnly: true)
            }
            let moved = keepPayloadFiles(of: contents, beside: aside, databaseFiles: rows.payloadFileNames)
            notes.append(("the journal does not go on top of this database (\(why)): it was set aside as "
                + "\(aside) and its changes are not applied"
                + (moved == 0 ? "" : "; the \(moved) payload file\(moved == 1 ? "" : "s") only it names went with it, "
                    + "to \(aside).files"), true))
            return try open(now: now, databaseIsNew: databaseIsNew, rows: rows, settingAside: true)
        }
        return Opened(file: journal, appliedEpoch: applied, changes: changes, records: contents.bodies.count)
    }

    /// Notes that the changes `opened` found were applied.
    mutating func noteApplied(_ opened: Opened) {
        notes.append(("the journal's \(opened.records) transactions (\(opened.changes.count) changes) "
            + "that had not reached the database were applied", false))
    }

    /// For a store only read: `database` with the journal's changes,
    /// where there are any for it, applied to a copy of it in memory (the
    /// files are never written); `database` itself when there are none.
    mutating func read(onto database: SQLiteDatabase, schema: Int64) throws(SQLiteError) -> SQLiteDatabase {
        var status = stat()
        guard schema >= 4, lstat(path, &status) == 0 else { return database }
        guard let contents = HistoryJournal.read(at: path) else {
            notes.append(("cannot read \(path): what it holds is not in view", true))
            return database
        }
        let applied = try HistoryRows(database: database, schema: schema).appliedEpoch()
        guard let changes = changes(in: contents, after: applied) else {
            if !contents.bodies.isEmpty {
                notes.append(("the journal does not go on top of the database as it is read: what it holds "
                    + "is not in view", true))
            }
            return database
        }
        guard !changes.isEmpty else { return database }
        let copy = try database.copiedIntoMemory()
        try copy.execute("BEGIN")
        for change in changes { try change.apply(to: copy) }
        try copy.execute("COMMIT")
        return copy
    }

    /// Moves the payload files that a set-aside journal's groups name and
    /// the database's do not into `aside.files`, so that the sweep of the
    /// payload directory (which keeps only the database's) leaves them for
    /// a person recovering the journal. Returns how many were moved.
    private func keepPayloadFiles(of contents: HistoryJournal.Contents, beside aside: String,
                                  databaseFiles: () -> [String]) -> Int {
        var named: Set<String> = []
        for body in contents.bodies {
            for case .group(let row) in HistoryChange.decodeAll(body) ?? [] where PayloadFiles.isName(row.file) {
                named.insert(row.file)
            }
        }
        if !named.isEmpty { named.subtract(databaseFiles()) }
        var status = stat()
        let present = named.sorted().filter { lstat(payloadFiles.path + "/" + $0, &status) == 0 }
        guard !present.isEmpty else { return 0 }
        let directory = aside + ".files"
        guard case .success = SystemCall.mkdir(directory, mode: 0o700) else { return 0 }
        return present.filter { name in
            let moved = SystemCall.rename(payloadFiles.path + "/" + name, to: directory + "/" + name)
            if case .success = moved { return true } else { return false }
        }.count
    }

    /// `name`, or with the first of `-1`, `-2`, … that makes it a name no
    /// file has.
    private static func unusedName(_ name: String) -> String {
        var status = stat()
        var candidate = name
        var number = 0
        while lstat(candidate, &status) == 0 {
            number += 1
            candidate = "\(name)-\(number)"
        }
        return candidate
    }

    /// The changes of the journal's records when they go on top of a
    /// database that took epoch `applied` last: nil when they do not (a
    /// journal SQLite took already, an empty file, one that is not ours,
    /// one that follows changes lost). A record cut short or damaged ends
    /// them, noted.
    private mutating func changes(in contents: HistoryJournal.Contents, after applied: UInt64) -> [HistoryChange]? {
        guard contents.epoch == applied + 1 else { return nil }
        var changes: [HistoryChange] = []
        for (index, body) in contents.bodies.enumerated() {
            guard let decoded = HistoryChange.decodeAll(body) else {
                notes.append(("record \(index + 1) of the journal is not one this undod reads: it and the "
                    + "\(contents.bodies.count - index - 1) after it are left out", true))
                return changes
            }
            changes += decoded
        }
        if contents.leftOut > 0 {
            notes.append(("the journal's last \(contents.leftOut) bytes are not a whole record (the system stopped "
                + "while it was written?): left out", true))
        }
        return changes
    }
}
