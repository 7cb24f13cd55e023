extension UndoStack {
    /// Records a group of actions (`Push`/`PushGroup`), merging it into the
    /// top group when the spec's Merging rule allows (`MergeRule`), then
    /// empties the redo side and applies the limits.
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
        let mergeTarget = mayMerge(hints: hints, now: now) ? line.undo.last : nil
        let merging = mergeTarget != nil
        let resultingBytes = (mergeTarget?.chargedBytes ?? 0) + pushedBytes
        try ValidationPolicy.validate(GroupCandidate(name: name, actionCount: actions.count, bytes: resultingBytes),
                                      under: settings)
        let newID: UInt64? = merging ? nil : try ids.take()

        let discarded = line.discardRedoSide()
        let group: UInt64
        if let newID {
            line.pushUndo(
                ActionGroup(
                    id: newID, name: name, actions: actions, time: now,
                    mergeKey: hints.mergeKey, stateTag: hints.stateTag, minimumActionBytes: settings.minimumActionBytes))
            group = newID
        } else {
            line.updateTopUndo {
                $0.merge(name: name, actions: actions, charged: pushedBytes, time: now, stateTag: hints.stateTag)
            }
            group = presentStateID
        }
        topIsMergeable = true
        let dropped = trimUndoSide(keeping: 1)
        return PushResult(group: group, merged: merging, discarded: discarded, dropped: dropped)
    }

    /// Whether a push with these hints at `now` merges into the top group (`MergeRule`).
    public func mayMerge(hints: PushHints, now: Int64) -> Bool {
        // The cheap checks first: most pushes carry no merge key, and the top
        // group handed to the rule is a copy (its strings and buffer retained).
        guard topIsMergeable, !hints.mergeKey.isEmpty else { return false }
        return MergeRule(windowMilliseconds: settings.mergeWindowMilliseconds)
            .merges(hints, at: now, into: line.undo.last, isMergeable: true, isClean: isClean)
    }
}
