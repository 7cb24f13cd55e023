#if canImport(Glibc)
import Glibc
#endif

/// The journal in front of SQLite (`HistoryJournal`): a transaction's
/// changes are one record appended to it, and SQLite takes the records
/// later, `recordsBeforeApplying` at a time, in one transaction. A SQLite
/// transaction takes locks and writes log frames, several system calls
/// each commit; a record costs one write.
///
/// Whatever reads the database takes the journal first (`reading`), so a
/// read never misses a change. A transaction that zeroes what it deletes
/// goes to SQLite directly, after the journal, and the journal is zeroed.
extension HistoryDatabase {
    /// How many records wait in the journal before SQLite takes them.
    static let recordsBeforeApplying = 128
    /// How long the journal may grow before SQLite takes it, however few
    /// its records.
    static let journalBytesBeforeApplying: Int64 = 256 << 10

    /// Makes `change`: into the transaction's record when it goes to the
    /// journal, else on SQLite now.
    func make(_ change: HistoryChange) throws(StoreError) {
        if journaling {
            transaction.append(change)
        } else {
            try writing { () throws(SQLiteError) in try change.apply(to: database) }
            if change.deletes { freedPages = true }
        }
    }

    /// Appends the transaction to the journal (the commit itself), then
    /// lets SQLite take the journal if it is due. That second step failing
    /// loses nothing (the journal keeps the records); commits try it again
    /// once twice as many records, or bytes, wait.
    func commitToJournal() throws(StoreError) {
        guard let journal, !transaction.isEmpty else { return }
        guard !journal.isBroken else {
            // (A read between `begin` and here could have broken it; nothing reads there today.)
            throw StoreError("the journal cannot take the transaction: it could not start over")
        }
        recordBody.removeAll(keepingCapacity: recordBody.capacity <= 1 << 20)
        for change in transaction { change.encode(into: &recordBody) }
        try journal.append(recordBody)
        unapplied.append(contentsOf: transaction)
        transaction.removeAll(keepingCapacity: true)
        unappliedRecords += 1
        if unappliedRecords >= applyingAfter.records || journal.length >= applyingAfter.bytes {
            do {
                try applyJournal()
            } catch {
                applyingAfter = (unappliedRecords * 2, journal.length * 2)
            }
        }
    }

    /// Brings the database up to date with the journal: every change
    /// waiting, and the journal's epoch, in one transaction; then the
    /// journal starts over (its records zeroed first while deletions are
    /// zeroed). If it cannot start over, transactions go to SQLite
    /// directly until it can (`mendJournal`).
    func applyJournal() throws(StoreError) {
        guard let journal, !unapplied.isEmpty else { return }
        do {
            try writing { () throws(SQLiteError) in
                try database.statement("BEGIN IMMEDIATE").run()
                do throws(SQLiteError) {
                    for change in unapplied { try change.apply(to: database) }
                    try database.statement("INSERT OR REPLACE INTO meta (key, value) VALUES ('journal_epoch', ?1)")
                        .run(binding: .integer(Int64(bitPattern: journal.epoch)))
                    try database.statement("COMMIT").run()
                } catch {
                    try? database.execute("ROLLBACK")
                    throw error
                }
            }
        } catch {
            applyFailed = true
            throw error
        }
        applyFailed = false
        appliedEpoch = journal.epoch
        if unapplied.contains(where: \.deletes) { freedPages = true }
        unapplied.removeAll(keepingCapacity: unapplied.count <= 4_096)
        unappliedRecords = 0
        applyingAfter = (Self.recordsBeforeApplying, Self.journalBytesBeforeApplying)
        try? journal.reset(epoch: appliedEpoch &+ 1, zeroing: zeroing)
        catchUpIfBehind()
        reclaim()
    }

    /// Has a journal that could not start over (or whose failed write may
    /// have left part of a record) start over once SQLite holds everything
    /// it did: from then on transactions go to it again.
    func mendJournal() {
        guard let journal, journal.isBroken, unapplied.isEmpty else { return }
        try? journal.reset(epoch: appliedEpoch &+ 1)
    }

    /// On the way out, once SQLite holds everything the journal did: its
    /// file is removed (the next open makes a new one), so that a stopped
    /// undod leaves only the database's files. From then on transactions
    /// go to SQLite directly.
    public func removeJournal() {
        guard let journal, unapplied.isEmpty, !journal.isBroken else { return }
        unlink(journal.path)
        self.journal = nil
    }

    /// The epoch of the journal SQLite took last (0: none yet).
    private func readAppliedEpoch() throws(SQLiteError) -> UInt64 {
        UInt64(bitPattern: try database.integer("SELECT value FROM meta WHERE key = 'journal_epoch'"))
    }

    /// Opens the journal (`journalPath`) and brings the database up to
    /// date with what it holds (what a killed daemon left there), saying
    /// what it found in `journalNotes`. Where none can be made, every
    /// transaction goes to SQLite directly. Throws a read-only error when
    /// one is there that cannot be opened or read (a link, never followed,
    /// included), or one to set aside that cannot be: it may hold answered
    /// changes, so the store is only read; a corrupt one when applying it
    /// finds the database corrupt. (`settingAside`: this call follows a
    /// set-aside, and will not make another.)
    func openJournal(now: Int64, databaseIsNew: Bool, settingAside: Bool = false) throws(StoreError) {
        let path = journalPath
        let journal: HistoryJournal
        do {
            journal = try HistoryJournal(path: path)
        } catch {
            var status = stat()
            guard lstat(path, &status) != 0 else {
                throw StoreError("\(error), and it may hold changes the database does not: the store is only read",
                                 readOnly: true)
            }
            journalNotes.append(("\(error); every change is written to the database directly", false))
            return
        }
        guard let contents = journal.read() else {
            throw StoreError("cannot read \(path), which may hold changes the database does not: the store is only read",
                             readOnly: true)
        }
        appliedEpoch = try reading { () throws(SQLiteError) in try readAppliedEpoch() }
        let changes: [HistoryChange]
        switch contents.epoch {
        case .some(let epoch) where epoch == appliedEpoch + 1 && !databaseIsNew:
            changes = Self.changes(in: contents, after: appliedEpoch, notes: &journalNotes) ?? []
        case .some(let epoch) where epoch <= appliedEpoch:
            changes = []  // SQLite has taken it already
        case _ where contents.bodies.isEmpty && contents.leftOut == 0:
            changes = []  // a new file, or one that holds no record
        default:
            // Not ours, beside a database made anew, or following changes
            // the database never got (an OS crash took them): kept for a
            // person to look at, never applied on top of the wrong state.
            let why = databaseIsNew ? "the database is new"
                : "its epoch is \(contents.epoch.map { "\($0)" } ?? "unreadable"), the database took \(appliedEpoch) last"
            let aside = Self.unusedName(path + ".set-aside-\(now)")
            guard !settingAside, rename(path, aside) == 0 else {
                // Written around, it could come to match later and be applied out of order.
                throw StoreError("the journal \(path) does not go on top of this database (\(why)) and cannot be set "
                    + "aside: the store is only read until it is moved away", readOnly: true)
            }
            let moved = keepPayloadFiles(of: contents, beside: aside)
            journalNotes.append(("the journal does not go on top of this database (\(why)): it was set aside as "
                + "\(aside) and its changes are not applied"
                + (moved == 0 ? "" : "; the \(moved) payload file\(moved == 1 ? "" : "s") only it names went with it, "
                    + "to \(aside).files"), true))
            return try openJournal(now: now, databaseIsNew: databaseIsNew, settingAside: true)
        }
        self.journal = journal
        guard !changes.isEmpty else {
            _ = try? journal.reset(epoch: appliedEpoch + 1)
            return
        }
        // Applied before the file starts over: a kill in between leaves the records.
        unapplied = changes
        unappliedRecords = contents.bodies.count
        try applyJournal()
        journalNotes.append(("the journal's \(contents.bodies.count) transactions (\(changes.count) changes) "
            + "that had not reached the database were applied", false))
    }

    /// Moves the payload files that a set-aside journal's groups name and
    /// the database's do not into `aside.files`, so that the sweep of the
    /// payload directory (which keeps only the database's) leaves them for
    /// a person recovering the journal. Returns how many were moved.
    private func keepPayloadFiles(of contents: HistoryJournal.Contents, beside aside: String) -> Int {
        var named: Set<String> = []
        for body in contents.bodies {
            for case .group(let row) in HistoryChange.decodeAll(body) ?? [] where PayloadFiles.isName(row.file) {
                named.insert(row.file)
            }
        }
        if schema >= 3, !named.isEmpty,
           let rows = try? database.statement("SELECT file FROM groups WHERE file != ''") {
            while (try? rows.step()) == true { named.remove(rows.text(0)) }
            rows.reset()
        }
        var status = stat()
        let present = named.sorted().filter { lstat(payloadFiles.path + "/" + $0, &status) == 0 }
        guard !present.isEmpty else { return 0 }
        let directory = aside + ".files"
        guard mkdir(directory, 0o700) == 0 else { return 0 }
        return present.filter { rename(payloadFiles.path + "/" + $0, directory + "/" + $0) == 0 }.count
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
    /// them, noted in `notes`.
    static func changes(in contents: HistoryJournal.Contents, after applied: UInt64,
                        notes: inout [(text: String, lost: Bool)]) -> [HistoryChange]? {
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

    /// For a store only read: the journal's changes, where there are any
    /// for this database, applied to a copy of it in memory (the files
    /// are never written).
    func readJournal() throws(SQLiteError) {
        var status = stat()
        guard schema >= 4, lstat(journalPath, &status) == 0 else { return }
        guard let contents = HistoryJournal.read(at: journalPath) else {
            journalNotes.append(("cannot read \(journalPath): what it holds is not in view", true))
            return
        }
        guard let changes = Self.changes(in: contents, after: try readAppliedEpoch(), notes: &journalNotes) else {
            if !contents.bodies.isEmpty {
                journalNotes.append(("the journal does not go on top of the database as it is read: what it holds "
                    + "is not in view", true))
            }
            return
        }
        guard !changes.isEmpty else { return }
        let copy = try database.copiedIntoMemory()
        try copy.execute("BEGIN")
        for change in changes { try change.apply(to: copy) }
        try copy.execute("COMMIT")
        database = copy
    }
}
