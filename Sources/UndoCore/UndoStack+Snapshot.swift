extension UndoStack {
    /// Everything needed to rebuild this stack. A group in flight is not part
    /// of it: an apply does not outlive the process, so the restored stack is
    /// the stack as it would be after `abortInFlight()`.
    public var snapshot: StackSnapshot {
        StackSnapshot(
            settings: settings, undo: Array(undoSide.elements), redo: redoSide.elements.reversed(),
            baseStateID: baseStateID, baseStateTag: baseStateTag, clean: clean, topIsMergeable: topIsMergeable)
    }

    /// Rebuilds the stack a snapshot was taken of. Throws when the snapshot
    /// breaks an invariant every stack keeps: group ids non-zero and rising
    /// from the base id up through the undo side and out along the redo side;
    /// no empty group; the clean state reachable or marked unreachable; the
    /// limits met; a mergeable top only with an undo side and no redo side.
    public init(restoring snapshot: StackSnapshot) throws(SnapshotError) {
        let sequence = snapshot.undo + snapshot.redo
        var previous = snapshot.baseStateID
        for group in sequence {
            guard group.id > previous else {
                throw SnapshotError(reason: "Group \(group.id) does not come after \(previous) in the stack's id order.")
            }
            previous = group.id
        }
        if case .state(let id) = snapshot.clean, id != snapshot.baseStateID, !sequence.contains(where: { $0.id == id }) {
            throw SnapshotError(reason: "The clean state \(id) is not a state of the stack.")
        }
        let levels = Int(snapshot.settings.levels)
        guard levels == 0 || snapshot.undo.count <= levels else {
            throw SnapshotError(reason: "The undo side holds \(snapshot.undo.count) groups, over the limit of \(levels).")
        }
        var undoBytes: UInt64 = 0
        var redoBytes: UInt64 = 0
        var overflow = false
        for group in snapshot.undo where !overflow { (undoBytes, overflow) = undoBytes.addingReportingOverflow(group.chargedBytes) }
        for group in snapshot.redo where !overflow { (redoBytes, overflow) = redoBytes.addingReportingOverflow(group.chargedBytes) }
        let (total, sumOverflow) = undoBytes.addingReportingOverflow(redoBytes)
        guard !overflow, !sumOverflow, total <= snapshot.settings.maxBytes else {
            throw SnapshotError(reason: "The stack holds more bytes than the limit of \(snapshot.settings.maxBytes).")
        }
        guard !snapshot.topIsMergeable || (!snapshot.undo.isEmpty && snapshot.redo.isEmpty) else {
            throw SnapshotError(reason: "The top group is marked mergeable while there is none, or there is a redo side.")
        }
        settings = snapshot.settings
        undoSide = GroupDeque(snapshot.undo)
        redoSide = GroupDeque(snapshot.redo.reversed())
        self.undoBytes = undoBytes
        self.redoBytes = redoBytes
        baseStateID = snapshot.baseStateID
        baseStateTag = snapshot.baseStateTag
        clean = snapshot.clean
        topIsMergeable = snapshot.topIsMergeable
        inFlightDirection = nil
    }
}
