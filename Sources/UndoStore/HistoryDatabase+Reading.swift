import UndoCore

/// Reading the history: the counters, the stacks with their groups, a
/// group's actions, the payload files the rows name (the SQL:
/// `HistoryRows`), each after SQLite has taken the journal (`reading`).
extension HistoryDatabase {
    /// The counters: the next stack number and the next group id.
    public func loadCounters() throws(StoreError) -> (nextStack: UInt64, nextGroup: UInt64) {
        try reading { () throws(SQLiteError) in try rows.counters() }
    }

    /// Every stored stack with its groups, actions left on disk.
    public func loadStacks() throws(StoreError) -> [StoredStack] {
        try reading { () throws(SQLiteError) in try rows.stacks(only: nil) }
    }

    /// One stored stack with its groups (actions left on disk), or nil.
    public func loadStack(_ number: UInt64) throws(StoreError) -> StoredStack? {
        try reading { () throws(SQLiteError) in try rows.stacks(only: number).first }
    }

    /// The actions of group `id` as `ActionCoding` encodes them (empty when
    /// there is no such group); throws a corruption naming the group when
    /// they fail their checksum.
    public func encodedActions(ofGroup id: UInt64) throws(StoreError) -> [UInt8] {
        var (payload, checksum, file) = try reading { () throws(SQLiteError) in try rows.payload(ofGroup: id) }
        if !file.isEmpty { payload = try payloadFiles.read(file, ofGroup: id) }
        if let checksum, Int64(PayloadChecksum.of(payload)) != checksum {
            throw StoreError("the payloads of group \(id) fail their checksum: the store is corrupt",
                             corruption: true)
        }
        return payload
    }

    /// The groups whose actions are in files of their own, each with its
    /// stack's number and its file's name.
    public func loadFileGroups() throws(StoreError) -> [UInt64: (stack: UInt64, file: String)] {
        try reading { () throws(SQLiteError) in try rows.fileGroups() }
    }

    /// The rows of the database open, as its schema has them.
    var rows: HistoryRows { HistoryRows(database: database, schema: schema) }
}
