#if canImport(Glibc)
import Glibc
#endif

/// The journal in front of SQLite (`HistoryJournal`): a transaction's
/// changes are one record appended to it, and SQLite takes the records
/// later, `recordsBeforeApplying` at a time, in one transaction. A SQLite
/// transaction costs a persistent push about 60 k instructions and ten
/// system calls (its locks, its log's frames); a record costs one write.
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
    /// loses nothing (the journal keeps the records); it is tried again at
    /// the next commit that finds twice as many waiting.
    func commitToJournal() throws(StoreError) {
        guard let journal, !transaction.isEmpty else { return }
        recordBody.removeAll(keepingCapacity: recordBody.capacity <= 1 << 20)
        for change in transaction { change.encode(into: &recordBody) }
        try journal.append(recordBody)
        unapplied.append(contentsOf: transaction)
        transaction.removeAll(keepingCapacity: true)
        unappliedRecords += 1
        if unappliedRecords >= applyingAfter || journal.length >= Self.journalBytesBeforeApplying {
            do {
                try applyJournal()
            } catch {
                applyingAfter = unappliedRecords * 2
            }
        }
    }

    /// Brings the database up to date with the journal: every change
    /// waiting, and the journal's epoch, in one transaction; then the
    /// journal starts over (zeroed first while deletions are zeroed). If it
    /// cannot start over, transactions go to SQLite directly until it can.
    func applyJournal() throws(StoreError) {
        guard let journal, !unapplied.isEmpty else { return }
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
        if unapplied.contains(where: \.deletes) { freedPages = true }
        unapplied.removeAll(keepingCapacity: unapplied.count <= 4_096)
        unappliedRecords = 0
        applyingAfter = Self.recordsBeforeApplying
        try? journal.reset(epoch: journal.epoch &+ 1, zeroing: zeroing)
        catchUpIfBehind()
        reclaim()
    }

    /// The epoch of the journal SQLite took last (0: none yet).
    private func appliedEpoch() throws(SQLiteError) -> UInt64 {
        UInt64(bitPattern: try database.integer("SELECT value FROM meta WHERE key = 'journal_epoch'"))
    }

    /// Opens the journal in `base` and brings the database up to date with
    /// what it holds (what a killed daemon left there), saying what it
    /// found in `journalNotes`. Without a journal (it cannot be opened)
    /// every transaction goes to SQLite directly. Throws what applying it
    /// met (corrupt: the caller starts afresh).
    func openJournal(base: String, now: Int64) throws(StoreError) {
        let path = base + "history.journal"
        var journal: HistoryJournal
        do {
            journal = try HistoryJournal(path: path)
        } catch {
            journalNotes.append(("\(error); every change is written to the database directly", false))
            return
        }
        let contents = journal.read()
        let applied = try reading { () throws(SQLiteError) in try appliedEpoch() }
        switch contents.epoch {
        case .some(let epoch) where epoch == applied + 1:
            self.journal = journal
            let changes = Self.changes(in: contents, after: applied, notes: &journalNotes) ?? []
            guard !changes.isEmpty else {
                _ = try? journal.reset(epoch: applied + 1)
                return
            }
            // Applied before the file starts over: a kill in between leaves the records.
            unapplied = changes
            unappliedRecords = contents.bodies.count
            try applyJournal()
            journalNotes.append(("the journal's \(contents.bodies.count) transactions (\(changes.count) changes) "
                + "that had not reached the database were applied", false))
        case .some(let epoch) where epoch <= applied:
            self.journal = journal  // SQLite has taken it already
            try? journal.reset(epoch: applied + 1)
        case nil where contents.leftOut == 0:
            self.journal = journal  // a new file
            try? journal.reset(epoch: applied + 1)
        default:
            // Not ours, or following changes the database never got (an OS
            // crash took them): kept for a person to look at, not applied.
            let aside = "\(path).set-aside-\(now)"
            let moved = rename(path, aside) == 0
            journalNotes.append(("the journal does not go on top of this database (its epoch is "
                + "\(contents.epoch.map { "\($0)" } ?? "unreadable"), the database took \(applied) last): "
                + (moved ? "it was set aside as \(aside) and its changes are not applied"
                         : "its changes are not applied"), true))
            do {
                journal = try HistoryJournal(path: path)
            } catch {
                journalNotes.append(("\(error); every change is written to the database directly", false))
                return
            }
            self.journal = journal
            try? journal.reset(epoch: applied + 1)
        }
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
    func readJournal(base: String) throws(SQLiteError) {
        guard schema >= 4, let contents = HistoryJournal.read(at: base + "history.journal") else { return }
        guard let changes = Self.changes(in: contents, after: try appliedEpoch(), notes: &journalNotes),
              !changes.isEmpty else { return }
        let copy = try database.copiedIntoMemory()
        try copy.execute("BEGIN")
        for change in changes { try change.apply(to: copy) }
        try copy.execute("COMMIT")
        database = copy
    }
}
