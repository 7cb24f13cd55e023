import UndoCore
import UndoStore

/// The groups a stored stack holds below its bottom state: trimmed off
/// it, their rows not yet deleted (`SQLiteHistoryStore` deletes them in
/// batches), and skipped when it is restored.
extension StoredStack {
    /// Leaves out the groups at or below the bottom state (trimmed, their
    /// rows not yet deleted); returns their ids.
    mutating func skipTrimmed() -> [UInt64] {
        let base = row.baseStateID
        let gone = (undo + redo).filter { $0.id <= base }.map(\.id)
        if !gone.isEmpty {
            undo.removeAll { $0.id <= base }
            redo.removeAll { $0.id <= base }
        }
        return gone
    }
}
