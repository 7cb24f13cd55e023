extension UndoStack {
    /// Puts the top undo group in flight and returns what the owner must
    /// apply: its undo payloads, last action first. Nothing else changes
    /// until `commitInFlight`, `abortInFlight` or `dropInFlightAsObsolete`.
    ///
    /// Throws `busy` when a group is already in flight, else `nothingToUndo`;
    /// `actionsNotLoaded` when a store still holds the group's actions.
    public mutating func beginUndo() throws(UndoError) -> StartedMove {
        try begin(.undo)
    }

    /// Puts the top redo group in flight and returns what the owner must
    /// apply: its redo payloads, first action first.
    ///
    /// Throws `busy` when a group is already in flight, else `nothingToRedo`;
    /// `actionsNotLoaded` when a store still holds the group's actions.
    public mutating func beginRedo() throws(UndoError) -> StartedMove {
        try begin(.redo)
    }

    /// Puts the top group of `side` in flight (see `beginUndo`, `beginRedo`).
    private mutating func begin(_ side: Direction) throws(UndoError) -> StartedMove {
        try refuseWhileInFlight()
        guard let top = line.top(side) else { throw side == .undo ? .nothingToUndo : .nothingToRedo }
        guard top.isLoaded else { throw .actionsNotLoaded(group: top.id) }
        inFlightDirection = side
        return StartedMove(direction: side, group: top.id, name: top.name,
                           payloads: ActionCoding.payloads(top.encodedActions, for: side))
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
        // The group in flight is the top of its side, so the move cannot fail.
        guard let group = line.moveTop(from: direction) else { return nil }
        let dropped = direction == .redo ? trimUndoSide(keeping: 1) : []
        return CompletedMove(direction: direction, group: group.id, name: group.name, dropped: dropped)
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
    /// applied, so it is dropped, and the present state keeps its clean
    /// value and its state tag (`HistoryLine.dropTopAsObsolete`: a clean
    /// state beyond the dropped group becomes unreachable). Like a committed
    /// move, the drop ends merging into the top group until the next push.
    /// Returns it, or `nil` when nothing was in flight.
    @discardableResult
    public mutating func dropInFlightAsObsolete() -> PendingMove? {
        guard let move = inFlight else { return nil }
        inFlightDirection = nil
        topIsMergeable = false
        // The group in flight is the top of its side, so it is there to drop.
        guard line.dropTopAsObsolete(move.direction) else { return nil }
        return move
    }
}
