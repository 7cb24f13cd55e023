import Loop
import Logging
import SafeText
import UndoCore

/// The applier's side of the service: what an undo or redo in flight needs
/// and where its outcome goes.
extension UndoService: ApplyHost {
    /// `apply.timeout_ms`.
    var applyTimeoutMilliseconds: UInt32 { settings.applyTimeoutMilliseconds }

    /// Where the store can only be read, a group it held cannot be undone
    /// or redone: the move could not be saved, and the next undod to write
    /// the store would offer the same group again — an undo the app already
    /// applied, handed out twice. Refused (`StorageFailed`), the stack
    /// unchanged; groups pushed in this run move as ever, in memory.
    func refusalToMoveStored(_ direction: Direction, of record: StackRecord) -> ServiceError? {
        guard !canPersist,
              let next = direction == .undo ? record.stack.topUndoGroup : record.stack.topRedoGroup,
              next.id < firstGroupOfThisRun else { return nil }
        return .storageFailed("the history store can only be read, so \(direction == .undo ? "undoing" : "redoing") "
            + "\(CallerText.quoted(next.name)), a change stored before, could not be remembered and would be offered "
            + "again later")
    }

    /// Whether `record` is the focused stack by the strategy, now.
    func isFocused(_ record: StackRecord) -> Bool {
        focus.focusedStack(in: registry) === record
    }

    /// Brings the payloads of the next group `direction` applies from the
    /// store. Payloads that fail their checksum, or cannot be read, never
    /// go to an application: that group and every group beyond it on that
    /// side are dropped (they cannot be reached without it), the log says
    /// "corrupt", and the undo or redo is refused with what was lost.
    func loadActions(for direction: Direction, of record: StackRecord) -> ServiceError? {
        if let refusal = refusalToMoveStored(direction, of: record) { return refusal }
        do {
            try store.loadActions(ofTop: direction, in: record)
            return nil
        } catch {
            guard let damaged = direction == .undo ? record.stack.topUndoGroup : record.stack.topRedoGroup else {
                return nil
            }
            turn.willChange(record)
            let dropped = record.stack.dropSide(direction)
            log.error("\(record.displayName): the history store is corrupt: the payloads of "
                + "\(CallerText.quoted(damaged.name)) (group \(damaged.id)) cannot be used (\(error)); it and "
                + "\(dropped.count - 1) more group\(dropped.count == 2 ? "" : "s") beyond it were dropped.")
            changed(record, groups: dropped.map { GroupChange(id: $0) })
            return .damaged(direction, name: damaged.name, alsoLost: dropped.count - 1)
        }
    }

    /// An undo or redo was applied by the owner and committed in memory.
    /// `completion`, after a `--verbose` line saying who asked for the move
    /// on `record` and how it ended.
    func logged(_ direction: Direction, on record: StackRecord, askedBy caller: String,
                then completion: @escaping (Result<CompletedMove, ServiceError>) -> Void)
        -> (Result<CompletedMove, ServiceError>) -> Void {
        { [unowned self] result in
            // Only a debug log builds the line.
            func who() -> String { caller == record.owner ? "\(caller) (its owner)" : caller }
            let verb = direction == .undo ? "undo" : "redo"
            switch result {
            case .success(let outcome):
                log.debug("\(who()) asked to \(verb) in \(record.displayName): \(verb == "undo" ? "undid" : "redid") "
                    + "\(CallerText.quoted(outcome.name)) (group \(outcome.group)).")
            case .failure(let error):
                let refusal = error.refusal(stack: record.displayName)
                log.debug("\(who()) asked to \(verb) in \(record.displayName): refused with \(refusal.name) "
                    + "(\(refusal.sentence))")
            }
            completion(result)
        }
    }

    func applied(_ record: StackRecord, _ move: CompletedMove) {
        turn.noteApplied(record)
        changed(record, groups: GroupChange.list(GroupChange(id: move.group), then: move.dropped))
        announcer.applied(record, move)
    }

    /// The owner said the group in flight can never be applied: it is gone,
    /// and the group below it took over its state tag.
    func droppedObsolete(_ record: StackRecord, group: UInt64) {
        let below = record.stack.topUndoGroup.map { [GroupChange(id: $0.id)] } ?? []
        changed(record, groups: [GroupChange(id: group)] + below)
    }
}
