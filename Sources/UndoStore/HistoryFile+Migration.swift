import UndoCore

/// How an older store's schema is brought up to this undod's.
extension HistoryFile {
    /// Schema 1 → 2: every group gets its charged bytes and checksum,
    /// computed from its payloads; then the file is rebuilt so that freed
    /// pages can be given back from now on.
    static func migrateToVersion2(_ database: SQLiteDatabase) throws(SQLiteError) {
        try database.execute("""
            BEGIN;
            ALTER TABLE groups ADD COLUMN charged INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE groups ADD COLUMN checksum INTEGER NOT NULL DEFAULT 0;
            """)
        let rows = try database.statement("SELECT id, payload FROM groups")
        var computed: [(id: Int64, charged: Int64, checksum: Int64)] = []
        while try rows.step() {
            let payload = rows.blob(1)
            let charged = EncodedActions(encoded: payload)?.chargedBytes() ?? 0
            computed.append((rows.int64(0), Int64(bitPattern: charged), Int64(PayloadChecksum.of(payload))))
        }
        rows.reset()
        let update = try database.statement("UPDATE groups SET charged = ?2, checksum = ?3 WHERE id = ?1")
        for row in computed {
            try update.bind(.integer(row.id), .integer(row.charged), .integer(row.checksum)).run()
            update.reset()
        }
        try database.execute("PRAGMA user_version = 2; COMMIT; VACUUM;")
    }

    /// Schema 2 → 3: groups may keep their actions in a file of their own
    /// (`file` names it); every group stored so far keeps them in its row.
    static func migrateToVersion3(_ database: SQLiteDatabase) throws(SQLiteError) {
        try database.execute("""
            BEGIN;
            ALTER TABLE groups ADD COLUMN file TEXT NOT NULL DEFAULT '';
            PRAGMA user_version = 3;
            COMMIT;
            """)
    }

    /// Schema 4 → 5: each stack keeps the program that made it (`origin`);
    /// stacks stored before have none, and gain the origin of whoever
    /// adopts them next.
    static func migrateToVersion5(_ database: SQLiteDatabase) throws(SQLiteError) {
        try database.execute("""
            BEGIN;
            ALTER TABLE stacks ADD COLUMN origin TEXT NOT NULL DEFAULT '';
            PRAGMA user_version = 5;
            COMMIT;
            """)
    }
}
