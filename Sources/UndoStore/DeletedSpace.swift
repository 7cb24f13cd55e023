/// What deleted history leaves in the database file: overwritten with
/// zeros where a history is deleted for good (`secure_delete`), and the
/// pages deletions freed given back to the file system once they are more
/// than a slack (`auto_vacuum = INCREMENTAL`), so that the files stay near
/// what the history holds.
struct DeletedSpace {
    /// How much `reclaim` gives back in one call at most.
    static let reclaimBytes: Int64 = 2 << 20
    /// Whether `secure_delete` is ON now (FAST otherwise).
    private(set) var zeroing = false
    /// Whether rows were deleted since `reclaim` last looked.
    var freedPages = false

    /// How much freed space may wait to be reused before `reclaim` gives
    /// it back, under `budget`: 4 MiB, or a quarter of the budget up to
    /// 16 MiB. Under a steady stream of pushes what aging out frees is
    /// reused by the next ones; giving it back first moves pages at every
    /// commit.
    static func reclaimSlack(budget: UInt64) -> Int64 {
        min(16 << 20, max(4 << 20, Int64(clamping: budget / 4)))
    }

    /// Whether what the next transactions on `database` delete is
    /// overwritten with zeros (`secure_delete` ON), or only where that
    /// costs no extra writing (FAST).
    mutating func zero(_ zero: Bool, in database: SQLiteDatabase) {
        guard zero != zeroing else { return }
        if (try? database.execute(zero ? "PRAGMA secure_delete = ON" : "PRAGMA secure_delete = FAST")) != nil {
            zeroing = zero
        }
    }

    /// A database opened anew: `secure_delete` is FAST again.
    mutating func databaseOpened() {
        zeroing = false
    }

    /// Gives the pages deleted rows freed in `database` (of `pageSize`
    /// bytes) back to the file system once they are more than
    /// `reclaimSlack(budget:)`, outside a transaction; nothing when nothing
    /// was deleted since it last looked. Returns whether it gave any back.
    mutating func reclaim(from database: SQLiteDatabase, pageSize: Int64, budget: UInt64) -> Bool {
        guard freedPages else { return false }
        freedPages = false
        let slack = Self.reclaimSlack(budget: budget)
        guard let free = try? database.integer("PRAGMA freelist_count"), free * pageSize > slack else { return false }
        // At most 2 MiB a call (each moved page is read and written again),
        // so that no one commit pays for many deletions at once.
        try? database.execute("PRAGMA incremental_vacuum(\(min(free, Self.reclaimBytes / pageSize)))")
        return true
    }
}
