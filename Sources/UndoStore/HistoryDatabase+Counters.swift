/// The store's small writes: the counters, and when stacks were detached.
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
}
