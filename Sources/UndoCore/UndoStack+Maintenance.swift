extension UndoStack {
    /// Marks the present state as clean (`SetClean`, e.g. after a save).
    /// Throws `busy` while a group is in flight.
    public mutating func setClean() throws(UndoError) {
        try refuseWhileInFlight()
        line.markClean()
    }

    /// Drops the whole history, both sides (`Clear`). The document stays as it
    /// is, so the present state becomes the bottom state with its name and
    /// state tag kept, and it is clean. Throws `busy` while a group is in flight.
    public mutating func clear() throws(UndoError) {
        try refuseWhileInFlight()
        line.clear()
        topIsMergeable = false
    }

    /// Replaces the settings; lowered limits apply at once. Oldest undo groups
    /// are dropped while the undo side is over the level limit or the stack
    /// over its byte limit; if the redo side alone is still over the byte
    /// limit, the redo groups farthest from the present are dropped too.
    /// Returns the dropped ids in the order dropped. Throws `busy` while a
    /// group is in flight.
    @discardableResult
    public mutating func setSettings(_ newSettings: StackSettings) throws(UndoError) -> [UInt64] {
        try refuseWhileInFlight()
        settings = newSettings
        var dropped = trimUndoSide(keeping: 0)
        while bytes > settings.maxBytes, let id = line.dropFarthestRedo() {
            dropped.append(id)
        }
        return dropped
    }

    /// Drops up to `count` groups for a global byte budget, in the order of
    /// `evictableGroupBytes`: undo groups oldest first, then redo groups
    /// farthest first, never the group in flight (so it may be called while
    /// one is). Returns the dropped ids in the order dropped.
    @discardableResult
    public mutating func dropOldest(_ count: Int) -> [UInt64] {
        var dropped: [UInt64] = []
        let keepUndo = inFlightDirection == .undo ? 1 : 0
        let keepRedo = inFlightDirection == .redo ? 1 : 0
        while dropped.count < count, line.undo.count > keepUndo, let id = dropOldestUndo() {
            dropped.append(id)
        }
        while dropped.count < count, line.redo.count > keepRedo, let id = line.dropFarthestRedo() {
            dropped.append(id)
        }
        return dropped
    }

    /// Drops every group on one side, nearest to the present first: the
    /// next group that way cannot be applied (its stored payloads are
    /// damaged), and nothing beyond it can be reached without it. Dropping
    /// the undo side makes the present the bottom state; a clean state that
    /// was among the dropped becomes unreachable. Nothing may be in flight.
    /// Returns the ids dropped.
    public mutating func dropSide(_ side: Direction) -> [UInt64] {
        guard inFlightDirection == nil else { return [] }
        switch side {
        case .undo:
            var dropped: [UInt64] = []
            while let id = dropOldestUndo() { dropped.append(id) }
            return dropped.reversed()
        case .redo:
            return line.discardRedoSide()
        }
    }
}
