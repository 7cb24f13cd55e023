public import UndoCore

/// One change to the store's rows, as a write of `HistoryDatabase` makes
/// it: run on SQLite at once, or kept in the journal (`HistoryJournal`)
/// first and run on SQLite later, with others, in one transaction.
///
/// Each change sets rows to a value or deletes them, never adds to what is
/// there, and stack numbers and group ids are never handed out twice: the
/// same changes run again in the same order leave the rows as they left
/// them the first time.
package enum HistoryChange: Equatable {
    /// A stack's whole row.
    case stack(StackRow)
    /// When a stack was detached (nil: it is attached).
    case detachedSince(stack: UInt64, since: Int64?)
    /// What a push, an undo or a trim moves in a stack's row: its bottom
    /// state, its clean state and whether its top may merge.
    case historyState(stack: UInt64, baseID: UInt64, baseTag: String, clean: CleanState, topMergeable: Bool)
    /// A group's whole row, its actions with it.
    case group(GroupRow)
    /// What changes as a group moves: its side, name, time and state tag.
    case groupMoved(id: UInt64, redo: Bool, name: String, time: Int64, stateTag: String)
    /// A stack deleted, with all its groups.
    case stackDeleted(UInt64)
    /// A group deleted, with its actions.
    case groupDeleted(UInt64)
    /// The counters: the next stack number and the next group id.
    case counters(nextStack: UInt64, nextGroup: UInt64)

    /// Whether the change deletes rows (and so frees pages).
    var deletes: Bool {
        switch self {
        case .stackDeleted, .groupDeleted: true
        default: false
        }
    }

    /// Runs the change on `database`.
    func apply(to database: SQLiteDatabase) throws(SQLiteError) {
        switch self {
        case .stack(let row):
            try database.statement("""
                INSERT OR REPLACE INTO stacks (number, app_id, document, title, levels, max_bytes, global_trigger,
                  detached_since, base_id, base_tag, clean_id, top_mergeable, origin)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
                """).run(binding:
                    .integer(Int64(bitPattern: row.number)), .text(row.appId), .text(row.document), .text(row.title),
                    .integer(Int64(row.requestedLevels)), .integer(Int64(bitPattern: row.requestedMaxBytes)),
                    .integer(row.globalTrigger ? 1 : 0), row.detachedSince.map { .integer($0) } ?? .null,
                    .integer(Int64(bitPattern: row.baseStateID)), .text(row.baseStateTag), Self.value(of: row.clean),
                    .integer(row.topIsMergeable ? 1 : 0), .text(row.origin))
        case .detachedSince(let number, let since):
            try database.statement("UPDATE stacks SET detached_since = ?2 WHERE number = ?1")
                .run(binding: .integer(Int64(bitPattern: number)), since.map { .integer($0) } ?? .null)
        case .historyState(let number, let baseID, let baseTag, let clean, let topMergeable):
            try database.statement("""
                UPDATE stacks SET base_id = ?2, base_tag = ?3, clean_id = ?4, top_mergeable = ?5 WHERE number = ?1
                """).run(binding: .integer(Int64(bitPattern: number)), .integer(Int64(bitPattern: baseID)),
                         .text(baseTag), Self.value(of: clean), .integer(topMergeable ? 1 : 0))
        case .group(let row):
            try database.statement("""
                INSERT OR REPLACE INTO groups (id, stack, redo, name, time, merge_key, state_tag, bytes, payload,
                  charged, checksum, file)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
                """).run(binding:
                    .integer(Int64(bitPattern: row.id)), .integer(Int64(bitPattern: row.stack)),
                    .integer(row.redo ? 1 : 0), .text(row.name), .integer(row.time), .text(row.mergeKey),
                    .text(row.stateTag), .integer(Int64(bitPattern: row.bytes)), .blob(row.payload),
                    .integer(Int64(bitPattern: row.charged)), .integer(Int64(row.checksum)), .text(row.file))
        case .groupMoved(let id, let redo, let name, let time, let stateTag):
            try database.statement("UPDATE groups SET redo = ?2, name = ?3, time = ?4, state_tag = ?5 WHERE id = ?1")
                .run(binding: .integer(Int64(bitPattern: id)), .integer(redo ? 1 : 0), .text(name), .integer(time),
                     .text(stateTag))
        case .stackDeleted(let number):
            let value = SQLiteValue.integer(Int64(bitPattern: number))
            try database.statement("DELETE FROM groups WHERE stack = ?1").run(binding: value)
            try database.statement("DELETE FROM stacks WHERE number = ?1").run(binding: value)
        case .groupDeleted(let id):
            try database.statement("DELETE FROM groups WHERE id = ?1").run(binding: .integer(Int64(bitPattern: id)))
        case .counters(let nextStack, let nextGroup):
            let statement = try database.statement("INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)")
            try statement.run(binding: .text("next_stack"), .integer(Int64(bitPattern: nextStack)))
            statement.reset()
            try statement.run(binding: .text("next_group"), .integer(Int64(bitPattern: nextGroup)))
        }
    }

    /// A clean state as its column holds it: the state's id, or NULL when
    /// no state of the stack is clean.
    private static func value(of clean: CleanState) -> SQLiteValue {
        if case .state(let id) = clean { .integer(Int64(bitPattern: id)) } else { .null }
    }
}

/// A group's row: where it is, what it is, and its actions (in `payload`,
/// or in the payload file `file` names, `payload` then empty) with their
/// checksum.
package struct GroupRow: Equatable {
    /// The group's id.
    package var id: UInt64
    /// Its stack's number.
    package var stack: UInt64
    /// Whether it is on the redo side.
    package var redo: Bool
    /// Its name.
    package var name: String
    /// When it was pushed (ms since the epoch).
    package var time: Int64
    /// Its merge key.
    package var mergeKey: String
    /// The state tag of the state it leads to.
    package var stateTag: String
    /// Its actions' bytes.
    package var bytes: UInt64
    /// What it counts for in the limits.
    package var charged: UInt64
    /// Its actions as `ActionCoding` encodes them (empty when in a file).
    package var payload: [UInt8]
    /// The CRC-32C of its actions, in the row or in the file.
    package var checksum: UInt32
    /// The payload file holding its actions ('' when in the row).
    package var file: String

    /// A row of these fields.
    package init(id: UInt64, stack: UInt64, redo: Bool, name: String, time: Int64, mergeKey: String, stateTag: String,
                 bytes: UInt64, charged: UInt64, payload: [UInt8], checksum: UInt32, file: String) {
        self.id = id
        self.stack = stack
        self.redo = redo
        self.name = name
        self.time = time
        self.mergeKey = mergeKey
        self.stateTag = stateTag
        self.bytes = bytes
        self.charged = charged
        self.payload = payload
        self.checksum = checksum
        self.file = file
    }

    /// The row of `group` of stack `stack`, on the redo side or not; with
    /// `file`, its actions are in that payload file, and the row names it
    /// and holds none.
    init(_ group: ActionGroup, stack: UInt64, onRedoSide: Bool, file: PayloadFile?) {
        let payload = file == nil ? group.encodedActions : []
        self.init(id: group.id, stack: stack, redo: onRedoSide, name: group.name, time: group.time,
                  mergeKey: group.mergeKey, stateTag: group.stateTag, bytes: group.bytes, charged: group.chargedBytes,
                  payload: payload, checksum: file?.checksum ?? PayloadChecksum.of(payload), file: file?.name ?? "")
    }
}
