import UndoCore

/// The store's small writes: the counters, when stacks were detached, and
/// the state a push moves.
extension HistoryDatabase {
    /// Writes the counters.
    public func saveCounters(nextStack: UInt64, nextGroup: UInt64) throws(StoreError) {
        try writing { () throws(SQLiteError) in
            let statement = try database.statement("INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)")
            try statement.bind(.text("next_stack"), .integer(Int64(bitPattern: nextStack))).run()
            statement.reset()
            try statement.bind(.text("next_group"), .integer(Int64(bitPattern: nextGroup))).run()
        }
    }

    /// Writes only when a stack was detached (or adopted), the one thing
    /// that changes for every stack of a client that leaves: in place,
    /// rather than the whole row again.
    public func saveDetachedSince(_ detachedSince: Int64?, ofStack number: UInt64) throws(StoreError) {
        try writing { () throws(SQLiteError) in
            try database.statement("UPDATE stacks SET detached_since = ?2 WHERE number = ?1")
                .bind(.integer(Int64(bitPattern: number)), detachedSince.map { .integer($0) } ?? .null).run()
        }
    }

    /// Writes what a push, an undo or a trim moves in a stack's row (its
    /// bottom state, clean state and whether its top may merge), in place:
    /// most pushes change nothing else of it, and rewriting the whole row
    /// (three strings and a delete and insert) was 6 % of a persistent push.
    public func saveHistoryState(of row: StackRow) throws(StoreError) {
        try writing { () throws(SQLiteError) in
            let clean: SQLiteValue = if case .state(let id) = row.clean { .integer(Int64(bitPattern: id)) } else { .null }
            try database.statement("""
                UPDATE stacks SET base_id = ?2, base_tag = ?3, clean_id = ?4, top_mergeable = ?5 WHERE number = ?1
                """).bind(.integer(Int64(bitPattern: row.number)), .integer(Int64(bitPattern: row.baseStateID)),
                          .text(row.baseStateTag), clean, .integer(row.topIsMergeable ? 1 : 0)).run()
        }
    }
}
