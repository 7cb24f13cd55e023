extension UndoStack {
    /// The group with `id` and the side it is on (`.undo`: the undo side), or
    /// nil. O(log n): ids rise along the undo side and on out the redo side.
    public func group(withID id: UInt64) -> (group: ActionGroup, side: Direction)? {
        line.group(withID: id)
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
        line.loadActions(encoded: encoded, forGroup: id)
    }
}
