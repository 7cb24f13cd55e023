extension UndoStack {
    /// The group with `id` and the side it is on (`.undo`: the undo side), or
    /// nil. O(log n): ids rise along the undo side and on out the redo side.
    public func group(withID id: UInt64) -> (group: ActionGroup, side: Direction)? {
        if let position = undoSide.position(ofID: id, ascending: true) { return (undoSide[position], .undo) }
        if let position = redoSide.position(ofID: id, ascending: false) { return (redoSide[position], .redo) }
        return nil
    }

    /// Brings a stored group's actions into memory (see `ActionGroup.unloaded`).
    /// Returns false, changing nothing, when there is no such unloaded group
    /// or the actions do not add up to its bytes.
    @discardableResult
    public mutating func loadActions(_ actions: [Action], forGroup id: UInt64) -> Bool {
        loadActions(encoded: ActionCoding.encode(actions), forGroup: id)
    }

    /// `loadActions` for actions as `ActionCoding` encodes them (as a store
    /// keeps them).
    @discardableResult
    public mutating func loadActions(encoded: [UInt8], forGroup id: UInt64) -> Bool {
        var loaded = false
        if let position = undoSide.position(ofID: id, ascending: true) {
            undoSide.update(at: position) { loaded = $0.load(encoded: encoded) }
        } else if let position = redoSide.position(ofID: id, ascending: false) {
            redoSide.update(at: position) { loaded = $0.load(encoded: encoded) }
        }
        return loaded
    }
}
