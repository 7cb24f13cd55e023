extension UndoStack {
    /// Puts the top undo group in flight and returns what the owner must
    /// apply: its undo payloads, last action first. Nothing else changes
    /// until `commitInFlight`, `abortInFlight` or `dropInFlightAsObsolete`.
    ///
    /// Throws `busy` when a group is already in flight, else `nothingToUndo`;
    /// `actionsNotLoaded` when a store still holds the group's actions.
    public mutating func beginUndo() throws(UndoError) -> StartedMove {
        try refuseWhileInFlight()
        guard let top = undoSide.last else { throw .nothingToUndo }
        guard top.isLoaded else { throw .actionsNotLoaded(group: top.id) }
        inFlightDirection = .undo
        return StartedMove(
            direction: .undo, group: top.id, name: top.name, payloads: ActionCoding.payloads(top.encodedActions, for: .undo))
    }

    /// Puts the top redo group in flight and returns what the owner must
    /// apply: its redo payloads, first action first.
    ///
    /// Throws `busy` when a group is already in flight, else `nothingToRedo`;
    /// `actionsNotLoaded` when a store still holds the group's actions.
    public mutating func beginRedo() throws(UndoError) -> StartedMove {
        try refuseWhileInFlight()
        guard let top = redoSide.last else { throw .nothingToRedo }
        guard top.isLoaded else { throw .actionsNotLoaded(group: top.id) }
        inFlightDirection = .redo
        return StartedMove(direction: .redo, group: top.id, name: top.name, payloads: ActionCoding.payloads(top.encodedActions, for: .redo))
    }

    /// The owner applied the group in flight: moves it to the other side.
    /// The group that ends on top of the undo side can no longer be merged
    /// into until the next push. After a redo, if the undo side is over the
    /// level limit (only possible after the limit was lowered), its oldest
    /// groups are dropped. Returns `nil`, changing nothing, when no group is in flight.
    @discardableResult
    public mutating func commitInFlight() -> CompletedMove? {
        guard let direction = inFlightDirection else { return nil }
        inFlightDirection = nil
        topIsMergeable = false
        // The group in flight is the top of its side, so the removals below cannot fail.
        switch direction {
        case .undo:
            guard let group = undoSide.removeLast() else { return nil }
            undoBytes -= group.chargedBytes
            redoSide.append(group)
            redoBytes += group.chargedBytes
            return CompletedMove(direction: .undo, group: group.id, name: group.name)
        case .redo:
            guard let group = redoSide.removeLast() else { return nil }
            redoBytes -= group.chargedBytes
            undoSide.append(group)
            undoBytes += group.chargedBytes
            let dropped = trimUndoSide(keeping: 1)
            return CompletedMove(direction: .redo, group: group.id, name: group.name, dropped: dropped)
        }
    }

    /// The owner could not apply the group in flight (or did not answer):
    /// the stack is exactly as it was before the undo or redo began.
    /// Returns what was in flight, or `nil` when nothing was.
    @discardableResult
    public mutating func abortInFlight() -> PendingMove? {
        let move = inFlight
        inFlightDirection = nil
        return move
    }

    /// The owner answered `Obsolete`: the group in flight can no longer be
    /// applied, so it is dropped. Returns it, or `nil` when nothing was in flight.
    ///
    /// The document did not change, so the present state keeps its clean
    /// value and its state tag: a dropped undo group's tag passes to the group
    /// below it (or to the bottom state). A clean state on the far side of the
    /// dropped group can only be reached through it and becomes unreachable:
    /// any state below a dropped undo group, any state above a dropped redo
    /// group. States on the near side stay reachable. Like a committed move,
    /// the drop ends merging into the top group until the next push.
    @discardableResult
    public mutating func dropInFlightAsObsolete() -> PendingMove? {
        guard let move = inFlight else { return nil }
        inFlightDirection = nil
        topIsMergeable = false
        // The group in flight is the top of its side, so the removals below cannot fail.
        switch move.direction {
        case .undo:
            let wasClean = isClean
            guard let group = undoSide.removeLast() else { return nil }
            undoBytes -= group.chargedBytes
            if undoSide.isEmpty {
                baseStateTag = group.stateTag
            } else {
                undoSide.updateLast { $0.stateTag = group.stateTag }
            }
            if wasClean {
                clean = .state(presentStateID)
            } else if case .state(let id) = clean, id == baseStateID || undoSide.elements.contains(where: { $0.id == id }) {
                clean = .unreachable
            }
        case .redo:
            if case .state(let id) = clean, redoSide.elements.contains(where: { $0.id == id }) {
                clean = .unreachable
            }
            guard let group = redoSide.removeLast() else { return nil }
            redoBytes -= group.chargedBytes
        }
        return move
    }
}
