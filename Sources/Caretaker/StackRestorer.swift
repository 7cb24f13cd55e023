import UndoCore
import UndoStore

/// Rebuilds stacks from what a `HistoryDatabase` holds: their records,
/// their histories (checked, as a damaged file could hold anything), and a
/// group's actions when they are needed. It holds no state, and serves
/// both stores: `SQLiteHistoryStore`, and `MemoryHistoryStore` over a
/// store only read.
enum StackRestorer {
    /// A detached record for a stored stack (its trimmed groups skipped),
    /// its history rebuilt; its actions stay on disk.
    static func record(restoring stored: StoredStack, persistent: Bool, settings: ServiceSettings,
                       now: Int64) throws(StoreError) -> StackRecord {
        let row = stored.row
        let record = StackRecord(
            number: row.number, appId: row.appId, document: row.document, title: row.title,
            requestedLevels: row.requestedLevels, requestedMaxBytes: row.requestedMaxBytes, persistent: persistent,
            globalTrigger: row.globalTrigger, stack: try restore(stored, mergeWindow: settings.mergeWindowMilliseconds))
        record.detachedSince = row.detachedSince ?? now
        record.origin = StackOrigin(key: row.origin)
        return record
    }

    /// Brings `group`'s actions from `database` into `record`'s memory;
    /// throws a corruption naming the group when they do not fit it.
    static func load(_ group: ActionGroup, into record: StackRecord, from database: HistoryDatabase) throws(StoreError) {
        let encoded = try database.encodedActions(ofGroup: group.id)
        guard record.stack.loadActions(encoded: encoded, forGroup: group.id) else {
            throw StoreError("the store's payloads for group \(group.id) do not add up to its \(group.bytes) "
                + "bytes: it is corrupt", corruption: true)
        }
    }

    /// Rebuilds a stored stack's history, with no limits yet (the daemon
    /// puts its settings on after); throws a corruption for values no undod
    /// writes.
    static func restore(_ stored: StoredStack, mergeWindow: UInt32) throws(StoreError) -> UndoStack {
        let row = stored.row
        // Values a damaged file could hold that no run of undod writes.
        let limit: UInt64 = 1 << 62, byteLimit: UInt64 = 1 << 40
        guard row.number > 0, row.number < limit, row.baseStateID < limit,
              (stored.undo + stored.redo).allSatisfy({ $0.id > 0 && $0.id < limit && $0.bytes < byteLimit }) else {
            throw StoreError("stack \(row.number) holds numbers no undod writes", corruption: true)
        }
        let unlimited = StackSettings(levels: 0, maxBytes: .max, mergeWindowMilliseconds: mergeWindow)
        let snapshot = StackSnapshot(settings: unlimited, undo: stored.undo, redo: stored.redo,
                                     baseStateID: row.baseStateID, baseStateTag: row.baseStateTag,
                                     clean: row.clean, topIsMergeable: row.topIsMergeable)
        do {
            return try UndoStack(restoring: snapshot)
        } catch {
            throw StoreError("stack \(row.number) does not hold together (\(error.reason))", corruption: true)
        }
    }
}
