#if canImport(Glibc)
import Glibc
#endif
import SystemCalls

/// Writes the store's transactions to its journal (`HistoryJournal`): a
/// transaction's changes are one record appended to it, and SQLite takes
/// the records later, `recordsBeforeApplying` at a time, in one
/// transaction. A SQLite transaction takes locks and writes WAL frames,
/// several system calls each commit; a record costs one write.
///
/// Whatever reads the database takes the journal first
/// (`HistoryDatabase.reading`), so a read never misses a change. A
/// transaction that zeroes what it deletes goes to SQLite directly, after
/// the journal, and the journal is zeroed. Where there is no journal (none
/// could be opened, or it was removed on the way out), or it could not
/// start over, every transaction goes to SQLite directly.
final class JournalWriter {
    /// How many records wait in the journal before SQLite takes them.
    static let recordsBeforeApplying = 128
    /// How long the journal may grow before SQLite takes it, however few
    /// its records.
    static let bytesBeforeApplying: Int64 = 256 << 10

    /// The journal's file (nil when there is none).
    private var file: HistoryJournal?
    /// Whether the transaction begun goes to the journal.
    private(set) var journaling = false
    /// The changes of the transaction begun, while it goes to the journal.
    private var transaction: [HistoryChange] = []
    /// The changes in the journal that SQLite has not taken yet, in order.
    private(set) var unapplied: [HistoryChange] = []
    /// How many records they came in.
    private var unappliedRecords = 0
    /// How many records, or bytes, in the journal make SQLite take it (more
    /// after it failed to).
    private var applyingAfter = (records: recordsBeforeApplying, bytes: bytesBeforeApplying)
    /// Whether SQLite failed to take the journal last time it was asked.
    private(set) var applyFailed = false
    /// The epoch of the journal SQLite took last (in `meta`; 0: none yet).
    private var appliedEpoch: UInt64 = 0
    /// The buffer a record is encoded in, kept between commits.
    private var recordBody: [UInt8] = []

    /// Takes up the journal found at open, with the changes it holds that
    /// SQLite has not taken; with none, the file starts over.
    func open(_ opened: JournalRecovery.Opened) {
        file = opened.file
        appliedEpoch = opened.appliedEpoch
        guard !opened.changes.isEmpty else {
            _ = try? opened.file.reset(epoch: appliedEpoch + 1)
            return
        }
        // Applied before the file starts over: a kill in between leaves the records.
        unapplied = opened.changes
        unappliedRecords = opened.records
    }

    /// Starts a transaction; returns whether it goes to the journal (not
    /// while what it deletes is zeroed, `zeroing`): if not, the caller
    /// begins one on SQLite, once SQLite has taken the journal.
    func begin(zeroing: Bool) -> Bool {
        transaction.removeAll(keepingCapacity: true)
        mend()
        journaling = file.map { !$0.isBroken } == true && !zeroing
        return journaling
    }

    /// Takes `change` into the transaction's record; false when the
    /// transaction goes to SQLite directly (the caller makes it there).
    func take(_ change: HistoryChange) -> Bool {
        guard journaling else { return false }
        transaction.append(change)
        return true
    }

    /// Appends the transaction to the journal as one record, in one write
    /// (the commit itself), and ends it; returns whether SQLite is due to
    /// take the journal.
    func commit() throws(StoreError) -> Bool {
        journaling = false
        guard let file, !transaction.isEmpty else { return false }
        guard !file.isBroken else {
            // (A read between `begin` and here could have broken it; nothing reads there today.)
            throw StoreError("the journal cannot take the transaction: it could not start over")
        }
        recordBody.removeAll(keepingCapacity: recordBody.capacity <= 1 << 20)
        for change in transaction { change.encode(into: &recordBody) }
        try file.append(recordBody)
        unapplied.append(contentsOf: transaction)
        transaction.removeAll(keepingCapacity: true)
        unappliedRecords += 1
        return unappliedRecords >= applyingAfter.records || file.length >= applyingAfter.bytes
    }

    /// SQLite could not take the journal when it was due. That loses
    /// nothing (the journal keeps the records); commits ask again once
    /// twice as many records, or bytes, wait.
    func postponeApplying() {
        applyingAfter = (unappliedRecords * 2, (file?.length ?? 0) * 2)
    }

    /// Abandons the transaction; returns whether it was the journal's
    /// (else the caller rolls SQLite's back).
    func rollback() -> Bool {
        transaction.removeAll(keepingCapacity: true)
        defer { journaling = false }
        return journaling
    }

    /// Has `database` take every change waiting, and the journal's epoch,
    /// in one transaction; then the journal starts over (its records
    /// zeroed first with `zeroing`). If it cannot start over, transactions
    /// go to SQLite directly until it can (`mend`). Returns whether the
    /// changes deleted rows; nil when none waited.
    func apply(to database: SQLiteDatabase, zeroing: Bool) throws(SQLiteError) -> Bool? {
        guard let file, !unapplied.isEmpty else { return nil }
        do throws(SQLiteError) {
            try database.statement("BEGIN IMMEDIATE").run()
            do throws(SQLiteError) {
                for change in unapplied { try change.apply(to: database) }
                try database.statement("INSERT OR REPLACE INTO meta (key, value) VALUES ('journal_epoch', ?1)")
                    .run(binding: .integer(Int64(bitPattern: file.epoch)))
                try database.statement("COMMIT").run()
            } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
        } catch {
            applyFailed = true
            throw error
        }
        applyFailed = false
        appliedEpoch = file.epoch
        let deleted = unapplied.contains(where: \.deletes)
        unapplied.removeAll(keepingCapacity: unapplied.count <= 4_096)
        unappliedRecords = 0
        applyingAfter = (Self.recordsBeforeApplying, Self.bytesBeforeApplying)
        try? file.reset(epoch: appliedEpoch &+ 1, zeroing: zeroing)
        return deleted
    }

    /// Applies the changes waiting to `database` in a transaction left
    /// open, for a read to see them where SQLite cannot take them (the
    /// disk is full): the caller rolls it back after the read.
    func applyUncommitted(to database: SQLiteDatabase) throws(SQLiteError) {
        try database.statement("BEGIN").run()
        do throws(SQLiteError) {
            for change in unapplied { try change.apply(to: database) }
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    /// Has a journal that could not start over (or whose failed write may
    /// have left part of a record) start over once SQLite holds everything
    /// it did: from then on transactions go to it again.
    private func mend() {
        guard let file, file.isBroken, unapplied.isEmpty else { return }
        try? file.reset(epoch: appliedEpoch &+ 1)
    }

    /// On the way out, once SQLite holds everything the journal did: its
    /// file is removed (the next open makes a new one), so that a stopped
    /// undod leaves only the database's files. From then on transactions
    /// go to SQLite directly.
    func remove() {
        guard let file, unapplied.isEmpty, !file.isBroken else { return }
        _ = SystemCall.unlink(file.path)
        self.file = nil
    }
}
