extension UndoStack {
    /// Records a group of actions (`Push`/`PushGroup`), merging it into the
    /// top group when the spec's Merging rule allows, then empties the redo
    /// side and applies the limits.
    ///
    /// A push merges when its merge key is not empty and equals the top
    /// group's, no undo or redo has been committed since that group was
    /// pushed or merged into, `now` is within the merge window (the hint's, or
    /// the settings') after the group's time, and the present state is not
    /// the clean state. A window of 0 ms never merges. A merged group keeps
    /// its id and takes the push's name, time and state tag.
    ///
    /// Throws `busy`, then the validation policy's errors (`invalidName`,
    /// `emptyGroup`, `payloadTooLarge` for the resulting group), then
    /// `groupIDsExhausted`; on any error nothing changes and no id is used.
    @discardableResult
    public mutating func push(
        name: String, actions: [Action], hints: PushHints = .none, now: Int64,
        ids: inout GroupIDGenerator
    ) throws(UndoError) -> PushResult {
        try push(name: name, actions: EncodedActions(actions), hints: hints, now: now, ids: &ids)
    }

    /// `push(name:actions:hints:now:ids:)` with the actions already encoded
    /// (a `PushGroup` as it came off the wire).
    @discardableResult
    public mutating func push(
        name: String, actions: EncodedActions, hints: PushHints = .none, now: Int64,
        ids: inout GroupIDGenerator
    ) throws(UndoError) -> PushResult {
        try refuseWhileInFlight()
        let pushedBytes = actions.chargedBytes(minimum: settings.minimumActionBytes)
        let mergeTarget = mayMerge(hints: hints, now: now) ? undoSide.last : nil
        let merging = mergeTarget != nil
        let resultingBytes = (mergeTarget?.chargedBytes ?? 0) + pushedBytes
        try ValidationPolicy(settings: settings).validate(
            GroupCandidate(name: name, actionCount: actions.count, bytes: resultingBytes))
        let newID: UInt64? = merging ? nil : try ids.take()

        let discarded = discardRedoSide()
        let group: UInt64
        if let newID {
            undoSide.append(
                ActionGroup(
                    id: newID, name: name, actions: actions, time: now,
                    mergeKey: hints.mergeKey, stateTag: hints.stateTag, minimumActionBytes: settings.minimumActionBytes))
            group = newID
        } else {
            undoSide.updateLast {
                $0.merge(name: name, actions: actions, charged: pushedBytes, time: now, stateTag: hints.stateTag)
            }
            group = presentStateID
        }
        undoBytes += pushedBytes
        topIsMergeable = true
        let dropped = trimUndoSide(keeping: 1)
        return PushResult(group: group, merged: merging, discarded: discarded, dropped: dropped)
    }

    /// Whether a push with these hints at `now` merges into the top group.
    public func mayMerge(hints: PushHints, now: Int64) -> Bool {
        guard topIsMergeable, !hints.mergeKey.isEmpty, let top = undoSide.last, top.isLoaded,
            top.mergeKey == hints.mergeKey, !isClean
        else { return false }
        let window = Int64(hints.mergeWindowMilliseconds ?? settings.mergeWindowMilliseconds) * 1000
        let (elapsed, overflow) = now.subtractingReportingOverflow(top.time)
        return window > 0 && !overflow && elapsed >= 0 && elapsed <= window
    }

    /// Empties the redo side (redo invalidation); a clean state on it becomes
    /// unreachable. Returns the ids discarded, nearest first.
    mutating func discardRedoSide() -> [UInt64] {
        guard !redoSide.isEmpty else { return [] }
        let ids = redoSide.elements.reversed().map(\.id)
        if case .state(let id) = clean, ids.contains(id) { clean = .unreachable }
        redoSide.removeAll()
        redoBytes = 0
        return ids
    }
}
