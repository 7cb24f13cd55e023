/// The journal in front of SQLite, as the store uses it: found at open
/// (`JournalRecovery`), written to by the transactions (`JournalWriter`),
/// and taken by SQLite, after which the store keeps its files small.
extension HistoryDatabase {
    /// Brings the database up to date with the journal (`JournalWriter.apply`),
    /// then asks for the WAL to start over if it is long and gives freed
    /// pages back.
    func applyJournal() throws(StoreError) {
        guard let deleted = try writing({ () throws(SQLiteError) in
            try journalWriter.apply(to: database, zeroing: deletedSpace.zeroing)
        }) else { return }
        if deleted { deletedSpace.freedPages = true }
        checkpointPacer.catchUpIfBehind(database, pageSize: pageSize, budget: budget)
        reclaim()
    }

    /// On the way out, once SQLite holds everything the journal did: its
    /// file is removed (the next open makes a new one), so that a stopped
    /// undod leaves only the database's files. From then on transactions
    /// go to SQLite directly.
    public func removeJournal() {
        journalWriter.remove()
    }

    /// Opens the journal and brings the database up to date with what it
    /// holds (what a killed daemon left there), saying what it found in
    /// `journalNotes`. Where none can be made, every transaction goes to
    /// SQLite directly. Throws as `JournalRecovery.open` does; a corrupt
    /// error when applying it finds the database corrupt.
    func openJournal(now: Int64, databaseIsNew: Bool) throws(StoreError) {
        guard let opened = try journalRecovery.open(now: now, databaseIsNew: databaseIsNew, rows: rows) else { return }
        journalWriter.open(opened)
        guard !opened.changes.isEmpty else { return }
        try applyJournal()
        journalRecovery.noteApplied(opened)
    }
}
