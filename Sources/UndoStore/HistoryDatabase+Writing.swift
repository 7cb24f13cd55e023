public import UndoCore

/// Writing the history, inside `begin`/`commit`: a transaction per loop
/// turn, rows for stacks and groups.
extension HistoryDatabase {
    /// Starts a transaction.
    public func begin() throws(StoreError) {
        try writing { () throws(SQLiteError) in try database.statement("BEGIN IMMEDIATE").run() }
    }

    /// Commits the transaction.
    public func commit() throws(StoreError) {
        try writing { () throws(SQLiteError) in try database.statement("COMMIT").run() }
        catchUpIfBehind()
    }

    /// Abandons the transaction; nothing of it reaches the disk.
    public func rollback() {
        try? database.execute("ROLLBACK")
    }

    /// Writes a stack's row.
    public func saveStack(_ row: StackRow) throws(StoreError) {
        try writing { () throws(SQLiteError) in
            let clean: SQLiteValue = if case .state(let id) = row.clean { .integer(Int64(bitPattern: id)) } else { .null }
            try database.statement("""
                INSERT OR REPLACE INTO stacks (number, app_id, document, title, levels, max_bytes, global_trigger,
                  detached_since, base_id, base_tag, clean_id, top_mergeable)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
                """).bind(
                    .integer(Int64(bitPattern: row.number)), .text(row.appId), .text(row.document), .text(row.title),
                    .integer(Int64(row.requestedLevels)), .integer(Int64(bitPattern: row.requestedMaxBytes)),
                    .integer(row.globalTrigger ? 1 : 0), row.detachedSince.map { .integer($0) } ?? .null,
                    .integer(Int64(bitPattern: row.baseStateID)), .text(row.baseStateTag), clean,
                    .integer(row.topIsMergeable ? 1 : 0)).run()
        }
    }

    /// Deletes a stack with all its groups.
    public func deleteStack(_ number: UInt64) throws(StoreError) {
        try writing { () throws(SQLiteError) in
            let value = SQLiteValue.integer(Int64(bitPattern: number))
            try database.statement("DELETE FROM groups WHERE stack = ?1").bind(value).run()
            try database.statement("DELETE FROM stacks WHERE number = ?1").bind(value).run()
        }
    }

    /// Writes a group: its whole row when its actions changed (a new group,
    /// or a merge), else only the fields that change as it moves (side,
    /// name, time, state tag). With `file`, its actions are in that payload
    /// file (`PayloadFiles`), and the row names it and holds none.
    public func saveGroup(_ group: ActionGroup, stack: UInt64, onRedoSide: Bool, actionsChanged: Bool,
                          file: PayloadFile? = nil) throws(StoreError) {
        try writing { () throws(SQLiteError) in
            let id = Int64(bitPattern: group.id)
            if group.isLoaded, actionsChanged {
                if let file {
                    try database.statement("""
                        INSERT OR REPLACE INTO groups (id, stack, redo, name, time, merge_key, state_tag, bytes, payload,
                          charged, checksum, file)
                        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, X'', ?9, ?10, ?11)
                        """).run(binding:
                            .integer(id), .integer(Int64(bitPattern: stack)), .integer(onRedoSide ? 1 : 0),
                            .text(group.name), .integer(group.time), .text(group.mergeKey), .text(group.stateTag),
                            .integer(Int64(bitPattern: group.bytes)), .integer(Int64(bitPattern: group.chargedBytes)),
                            .integer(Int64(file.checksum)), .text(file.name))
                    return
                }
                // The actions in the row; `file` takes its default, '' (a replaced row's file is dropped).
                try database.statement("""
                    INSERT OR REPLACE INTO groups (id, stack, redo, name, time, merge_key, state_tag, bytes, payload,
                      charged, checksum)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
                    """).run(binding:
                        .integer(id), .integer(Int64(bitPattern: stack)), .integer(onRedoSide ? 1 : 0),
                        .text(group.name), .integer(group.time), .text(group.mergeKey), .text(group.stateTag),
                        .integer(Int64(bitPattern: group.bytes)), .blob(group.encodedActions),
                        .integer(Int64(bitPattern: group.chargedBytes)),
                        .integer(Int64(PayloadChecksum.of(group.encodedActions))))
            } else {
                try database.statement("UPDATE groups SET redo = ?2, name = ?3, time = ?4, state_tag = ?5 WHERE id = ?1")
                    .bind(.integer(id), .integer(onRedoSide ? 1 : 0), .text(group.name), .integer(group.time),
                          .text(group.stateTag)).run()
            }
        }
    }

    /// Deletes a group with its actions.
    public func deleteGroup(_ id: UInt64) throws(StoreError) {
        try writing { () throws(SQLiteError) in
            let value = SQLiteValue.integer(Int64(bitPattern: id))
            try database.statement("DELETE FROM groups WHERE id = ?1").bind(value).run()
        }
    }
}
