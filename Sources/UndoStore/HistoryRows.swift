import UndoCore

/// The store's rows read back, as the file's schema has them: an older
/// store, only read as it is, lacks the columns later schemas added
/// (`HistoryFile`), and each read says what stands in for them. Every
/// statement is prepared once (`SQLiteDatabase.statement`).
struct HistoryRows {
    /// The database read.
    let database: SQLiteDatabase
    /// Its schema version.
    let schema: Int64

    /// The counters: the next stack number and the next group id, never
    /// below what the rows themselves prove was used.
    func counters() throws(SQLiteError) -> (nextStack: UInt64, nextGroup: UInt64) {
        let stack = try database.integer("SELECT value FROM meta WHERE key = 'next_stack'")
        let group = try database.integer("SELECT value FROM meta WHERE key = 'next_group'")
        let maxStack = try database.integer("SELECT coalesce(max(number), 0) FROM stacks")
        let maxGroup = try database.integer("SELECT coalesce(max(id), 0) FROM groups")
        return (max(UInt64(bitPattern: stack), UInt64(bitPattern: maxStack) &+ 1, 1),
                max(UInt64(bitPattern: group), UInt64(bitPattern: maxGroup) &+ 1, 1))
    }

    /// The epoch of the journal SQLite took last (0: none yet).
    func appliedEpoch() throws(SQLiteError) -> UInt64 {
        UInt64(bitPattern: try database.integer("SELECT value FROM meta WHERE key = 'journal_epoch'"))
    }

    /// Every stack (or only stack `number`) with its groups, their actions
    /// left on disk, by stack number.
    func stacks(only number: UInt64?) throws(SQLiteError) -> [StoredStack] {
        var stacks: [UInt64: StoredStack] = [:]
        // Four statements, each prepared once: the whole store or one stack; schema 5
        // added the origin, which an older store (only read as it is) lacks.
        let rows = switch (number == nil, schema < 5) {
        case (true, false): try database.statement("""
            SELECT number, app_id, document, title, levels, max_bytes, global_trigger, detached_since,
                   base_id, base_tag, clean_id, top_mergeable, origin FROM stacks
            """)
        case (false, false): try database.statement("""
            SELECT number, app_id, document, title, levels, max_bytes, global_trigger, detached_since,
                   base_id, base_tag, clean_id, top_mergeable, origin FROM stacks WHERE number = ?1
            """)
        case (true, true): try database.statement("""
            SELECT number, app_id, document, title, levels, max_bytes, global_trigger, detached_since,
                   base_id, base_tag, clean_id, top_mergeable, '' FROM stacks
            """)
        case (false, true): try database.statement("""
            SELECT number, app_id, document, title, levels, max_bytes, global_trigger, detached_since,
                   base_id, base_tag, clean_id, top_mergeable, '' FROM stacks WHERE number = ?1
            """)
        }
        if let number { try rows.bind(.integer(Int64(bitPattern: number))) }
        while try rows.step() {
            let number = UInt64(bitPattern: rows.int64(0))
            let row = StackRow(
                number: number, appId: rows.text(1), document: rows.text(2), title: rows.text(3),
                requestedLevels: UInt32(clamping: rows.int64(4)), requestedMaxBytes: UInt64(bitPattern: rows.int64(5)),
                globalTrigger: rows.int64(6) != 0, detachedSince: rows.isNull(7) ? nil : rows.int64(7),
                baseStateID: UInt64(bitPattern: rows.int64(8)), baseStateTag: rows.text(9),
                clean: rows.isNull(10) ? .unreachable : .state(UInt64(bitPattern: rows.int64(10))),
                topIsMergeable: rows.int64(11) != 0, origin: rows.text(12))
            stacks[number] = StoredStack(row: row, undo: [], redo: [])
        }
        // Schema 1 has no charged bytes: read as its payload bytes.
        let groups = try schema < 2
            ? database.statement("""
                SELECT id, stack, redo, name, time, merge_key, state_tag, bytes, bytes FROM groups ORDER BY id
                """)
            : number == nil
            ? database.statement("""
                SELECT id, stack, redo, name, time, merge_key, state_tag, bytes, charged FROM groups ORDER BY id
                """)
            : database.statement("""
                SELECT id, stack, redo, name, time, merge_key, state_tag, bytes, charged FROM groups
                WHERE stack = ?1 ORDER BY id
                """)
        if let number, schema >= 2 { try groups.bind(.integer(Int64(bitPattern: number))) }
        while try groups.step() {
            let stack = UInt64(bitPattern: groups.int64(1))
            let group = ActionGroup.unloaded(
                id: UInt64(bitPattern: groups.int64(0)), name: groups.text(3), time: groups.int64(4),
                mergeKey: groups.text(5), stateTag: groups.text(6), bytes: UInt64(bitPattern: groups.int64(7)),
                chargedBytes: UInt64(bitPattern: groups.int64(8)))
            if groups.int64(2) != 0 {
                stacks[stack]?.redo.append(group)
            } else {
                stacks[stack]?.undo.append(group)
            }
        }
        return stacks.keys.sorted().compactMap { stacks[$0] }
    }

    /// Group `id`'s payload column, its checksum (nil in schema 1) and the
    /// payload file it names (empty: none); an empty payload and no file
    /// when there is no such group.
    func payload(ofGroup id: UInt64) throws(SQLiteError) -> (payload: [UInt8], checksum: Int64?, file: String) {
        // Schema 1 (only read as it is) has no checksums, schema 2 no files.
        let rows = try schema < 2 ? database.statement("SELECT payload, NULL, '' FROM groups WHERE id = ?1")
            : schema < 3 ? database.statement("SELECT payload, checksum, '' FROM groups WHERE id = ?1")
            : database.statement("SELECT payload, checksum, file FROM groups WHERE id = ?1")
        try rows.bind(.integer(Int64(bitPattern: id)))
        guard try rows.step() else { return ([], nil, "") }
        defer { rows.reset() }
        return (rows.blob(0), rows.isNull(1) ? nil : rows.int64(1), rows.text(2))
    }

    /// The groups whose actions are in files of their own, each with its
    /// stack's number and its file's name (none before schema 3).
    func fileGroups() throws(SQLiteError) -> [UInt64: (stack: UInt64, file: String)] {
        guard schema >= 3 else { return [:] }
        let rows = try database.statement("SELECT id, stack, file FROM groups WHERE file != ''")
        var groups: [UInt64: (stack: UInt64, file: String)] = [:]
        while try rows.step() {
            groups[UInt64(bitPattern: rows.int64(0))] = (UInt64(bitPattern: rows.int64(1)), rows.text(2))
        }
        return groups
    }

    /// The names of the payload files the rows name, as far as they can be
    /// read (none before schema 3).
    func payloadFileNames() -> [String] {
        guard schema >= 3, let rows = try? database.statement("SELECT file FROM groups WHERE file != ''") else {
            return []
        }
        var names: [String] = []
        while (try? rows.step()) == true { names.append(rows.text(0)) }
        rows.reset()
        return names
    }
}
