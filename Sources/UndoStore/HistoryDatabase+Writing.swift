public import UndoCore

/// Writing the history, inside `begin`/`commit`: a transaction per loop
/// turn, each write a `HistoryChange`. A transaction goes to the journal
/// (`JournalWriter`) where there is one, else, and when it zeroes
/// what it deletes, to SQLite directly.
extension HistoryDatabase {
    /// Starts a transaction.
    public func begin() throws(StoreError) {
        guard !journalWriter.begin(zeroing: deletedSpace.zeroing) else { return }
        // SQLite takes what the journal holds first: the order of changes is kept.
        try applyJournal()
        try writing { () throws(SQLiteError) in try database.statement("BEGIN IMMEDIATE").run() }
    }

    /// Commits the transaction: once this returns, a killed daemon keeps it.
    public func commit() throws(StoreError) {
        guard !journalWriter.journaling else {
            // SQLite failing to take the journal when due loses nothing: it keeps the records.
            guard try journalWriter.commit() else { return }
            do { try applyJournal() } catch { journalWriter.postponeApplying() }
            return
        }
        try writing { () throws(SQLiteError) in try database.statement("COMMIT").run() }
        checkpointPacer.catchUpIfBehind(database, pageSize: pageSize, budget: budget)
    }

    /// Abandons the transaction; nothing of it reaches the disk.
    public func rollback() {
        if !journalWriter.rollback() { try? database.execute("ROLLBACK") }
    }

    /// Makes `change`: into the transaction's record when it goes to the
    /// journal, else on SQLite now.
    func make(_ change: HistoryChange) throws(StoreError) {
        guard !journalWriter.take(change) else { return }
        try writing { () throws(SQLiteError) in try change.apply(to: database) }
        if change.deletes { deletedSpace.freedPages = true }
    }

    /// Writes a stack's row.
    public func saveStack(_ row: StackRow) throws(StoreError) {
        try make(.stack(row))
    }

    /// Deletes a stack with all its groups.
    public func deleteStack(_ number: UInt64) throws(StoreError) {
        try make(.stackDeleted(number))
    }

    /// Writes a group: its whole row when its actions changed (a new group,
    /// or a merge), else only the fields that change as it moves (side,
    /// name, time, state tag). With `file`, its actions are in that payload
    /// file (`PayloadFiles`), and the row names it and holds none.
    public func saveGroup(_ group: ActionGroup, stack: UInt64, onRedoSide: Bool, actionsChanged: Bool,
                          file: PayloadFile? = nil) throws(StoreError) {
        guard group.isLoaded, actionsChanged else {
            return try make(.groupMoved(id: group.id, redo: onRedoSide, name: group.name, time: group.time,
                                        stateTag: group.stateTag))
        }
        try make(.group(GroupRow(group, stack: stack, onRedoSide: onRedoSide, file: file)))
    }

    /// Deletes a group with its actions.
    public func deleteGroup(_ id: UInt64) throws(StoreError) {
        try make(.groupDeleted(id))
    }

    /// Writes the counters.
    public func saveCounters(nextStack: UInt64, nextGroup: UInt64) throws(StoreError) {
        try make(.counters(nextStack: nextStack, nextGroup: nextGroup))
    }

    /// Writes only when a stack was detached (or adopted), the one thing
    /// that changes for every stack of a client that leaves: in place,
    /// rather than the whole row again.
    public func saveDetachedSince(_ detachedSince: Int64?, ofStack number: UInt64) throws(StoreError) {
        try make(.detachedSince(stack: number, since: detachedSince))
    }

    /// Writes what a push, an undo or a trim moves in a stack's row (its
    /// bottom state, clean state and whether its top may merge), in place:
    /// most pushes change nothing else of it, and rewriting the whole row
    /// (three strings and a delete and insert) was 6 % of a persistent push.
    public func saveHistoryState(of row: StackRow) throws(StoreError) {
        try make(.historyState(stack: row.number, baseID: row.baseStateID, baseTag: row.baseStateTag, clean: row.clean,
                               topMergeable: row.topIsMergeable))
    }
}
