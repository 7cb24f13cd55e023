extension UndoStack {
    /// Everything needed to rebuild this stack. A group in flight is not part
    /// of it: an apply does not outlive the process, so the restored stack is
    /// the stack as it would be after `abortInFlight()`.
    public var snapshot: StackSnapshot {
        StackSnapshot(
            settings: settings, undo: Array(line.undo.elements), redo: line.redo.elements.reversed(),
            baseStateID: line.bottomID, baseStateTag: line.bottomTag, clean: line.clean, topIsMergeable: topIsMergeable)
    }

    /// Rebuilds the stack a snapshot was taken of. Throws when the snapshot
    /// breaks an invariant every stack keeps (`StackSnapshot.check`): group
    /// ids non-zero and rising from the base id up through the undo side and
    /// out along the redo side; the clean state reachable or marked
    /// unreachable; the limits met; a mergeable top only with an undo side
    /// and no redo side.
    public init(restoring snapshot: StackSnapshot) throws(SnapshotError) {
        try snapshot.check()
        settings = snapshot.settings
        line = HistoryLine(snapshot)
        topIsMergeable = snapshot.topIsMergeable
        inFlightDirection = nil
    }
}
