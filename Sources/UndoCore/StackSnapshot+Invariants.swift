/// The invariants every stack keeps, checked on a snapshot before a stack
/// is rebuilt from it (`UndoStack(restoring:)`): a damaged store could hold
/// anything.
extension StackSnapshot {
    /// Throws when the snapshot breaks an invariant every stack keeps:
    /// group ids non-zero and rising from the base id up through the undo
    /// side and out along the redo side; the clean state reachable or
    /// marked unreachable; the limits met (the bytes adding up without
    /// overflow); a mergeable top only with an undo side and no redo side.
    func check() throws(SnapshotError) {
        let sequence = undo + redo
        var previous = baseStateID
        for group in sequence {
            guard group.id > previous else {
                throw SnapshotError(reason: "Group \(group.id) does not come after \(previous) in the stack's id order.")
            }
            previous = group.id
        }
        if case .state(let id) = clean, id != baseStateID, !sequence.contains(where: { $0.id == id }) {
            throw SnapshotError(reason: "The clean state \(id) is not a state of the stack.")
        }
        let levels = Int(settings.levels)
        guard levels == 0 || undo.count <= levels else {
            throw SnapshotError(reason: "The undo side holds \(undo.count) groups, over the limit of \(levels).")
        }
        var undoBytes: UInt64 = 0
        var redoBytes: UInt64 = 0
        var overflow = false
        for group in undo where !overflow { (undoBytes, overflow) = undoBytes.addingReportingOverflow(group.chargedBytes) }
        for group in redo where !overflow { (redoBytes, overflow) = redoBytes.addingReportingOverflow(group.chargedBytes) }
        let (total, sumOverflow) = undoBytes.addingReportingOverflow(redoBytes)
        guard !overflow, !sumOverflow, total <= settings.maxBytes else {
            throw SnapshotError(reason: "The stack holds more bytes than the limit of \(settings.maxBytes).")
        }
        guard !topIsMergeable || (!undo.isEmpty && redo.isEmpty) else {
            throw SnapshotError(reason: "The top group is marked mergeable while there is none, or there is a redo side.")
        }
    }
}
