import Loop
import Logging
import SafeText
import UndoCore

/// The service's side of undos and redos: a request checked and queued with
/// the applier (and, in a `--verbose` log, a line for how it ended), and
/// the service as the applier's `ApplyHost`: what a move in flight needs
/// of it (the payloads, the timeout, whether a stack is still focused) and
/// where its outcome goes (stored and announced).
final class ServiceApplyHost: ApplyHost {
    /// The service, which owns this and outlives it.
    private unowned let service: UndoService

    /// The applier's host in `service`.
    init(of service: UndoService) {
        self.service = service
    }

    /// Queues an undo or redo of `record` for `caller` (nil: a trigger)
    /// with the applier, behind any apply in flight; `completion` gets the
    /// move once it is stored. With `group`, only that group may move;
    /// `followsFocus`: only while `record` is still the focused stack.
    func request(_ direction: Direction, on record: StackRecord, caller: String?, expecting group: ExpectedGroup?,
                 followsFocus: Bool, completion: @escaping (Result<CompletedMove, ServiceError>) -> Void) {
        // A caller's request is logged here (a trigger's, by TriggerHandler).
        let completion = if service.log.writesDebug, let caller {
            logged(direction, on: record, askedBy: caller, then: completion)
        } else {
            completion
        }
        // Anyone but the owner — a trigger (no caller) included — is foreign.
        if caller != record.owner, !record.globalTrigger {
            return completion(.failure(.triggerDisabled))
        }
        guard record.isAttached else { return completion(.failure(.noOwner)) }
        // Held strongly, as the request holds it only until it is answered
        // (every request is: applied, refused, timed out or its owner gone).
        let stored: ApplyQueue.Completion = { [service] result in
            guard case .success(let outcome) = result else { return completion(result) }
            guard service.turn.mustHold(.applied(record), counters: service.counters) else { return completion(result) }
            service.turn.hold(.applied(record), send: { completion(.success(outcome)) },
                              fail: { completion(.failure($0)) })
        }
        service.applier.enqueue(ApplyQueue.Request(direction: direction, caller: caller, completion: stored,
                                                   expectedGroup: group, followsFocus: followsFocus),
                                on: record, limit: service.settings.applyQueue)
    }

    /// `apply.timeout_ms`.
    var applyTimeoutMilliseconds: UInt32 { service.settings.applyTimeoutMilliseconds }

    /// Where the store can only be read, a group it held cannot be undone
    /// or redone: the move could not be saved, and the next undod to write
    /// the store would offer the same group again — an undo the app already
    /// applied, handed out twice. Refused (`StorageFailed`), the stack
    /// unchanged; groups pushed in this run move as ever, in memory.
    func refusalToMoveStored(_ direction: Direction, of record: StackRecord) -> ServiceError? {
        guard !service.canPersist,
              let next = direction == .undo ? record.stack.topUndoGroup : record.stack.topRedoGroup,
              next.id < service.firstGroupOfThisRun else { return nil }
        return .storageFailed("the history store can only be read, so \(direction == .undo ? "undoing" : "redoing") "
            + "\(CallerText.quoted(next.name)), a change stored before, could not be remembered and would be offered "
            + "again later")
    }

    /// Whether `record` is the focused stack by the strategy, now.
    func isFocused(_ record: StackRecord) -> Bool {
        service.stackFocus.isFocused(record)
    }

    /// Brings the payloads of the next group `direction` applies from the
    /// store. Payloads that fail their checksum, or cannot be read, never
    /// go to an application: that group and every group beyond it on that
    /// side are dropped (they cannot be reached without it), the log says
    /// "corrupt", and the undo or redo is refused with what was lost.
    func loadActions(for direction: Direction, of record: StackRecord) -> ServiceError? {
        if let refusal = refusalToMoveStored(direction, of: record) { return refusal }
        do {
            try service.store.loadActions(ofTop: direction, in: record)
            return nil
        } catch {
            guard let damaged = direction == .undo ? record.stack.topUndoGroup : record.stack.topRedoGroup else {
                return nil
            }
            service.turn.willChange(record)
            let dropped = record.stack.dropSide(direction)
            service.log.error(.groupDamaged, "\(record.displayName): the history store is corrupt: the payloads of "
                + "\(CallerText.quoted(damaged.name)) (group \(damaged.id)) cannot be used (\(error)); it and "
                + "\(dropped.count - 1) more group\(dropped.count == 2 ? "" : "s") beyond it were dropped.")
            service.changed(record, groups: dropped.map { GroupChange(id: $0) })
            return .damaged(direction, name: damaged.name, alsoLost: dropped.count - 1)
        }
    }

    /// `completion`, after a `--verbose` line saying who asked for the move
    /// on `record` and how it ended.
    private func logged(_ direction: Direction, on record: StackRecord, askedBy caller: String,
                then completion: @escaping (Result<CompletedMove, ServiceError>) -> Void)
        -> (Result<CompletedMove, ServiceError>) -> Void {
        { [unowned service] result in
            // Only a debug log builds the line.
            func who() -> String { caller == record.owner ? "\(caller) (its owner)" : caller }
            let verb = direction == .undo ? "undo" : "redo"
            switch result {
            case .success(let outcome):
                service.log.debug(.callApplied, "\(who()) asked to \(verb) in \(record.displayName): "
                    + "\(verb == "undo" ? "undid" : "redid") \(CallerText.quoted(outcome.name)) (group \(outcome.group)).")
            case .failure(let error):
                let refusal = error.refusal(stack: record.displayName)
                service.log.debug(.callRefused, "\(who()) asked to \(verb) in \(record.displayName): refused with \(refusal.name) "
                    + "(\(refusal.sentence))")
            }
            completion(result)
        }
    }

    /// An undo or redo was applied by the owner and committed in memory.
    func applied(_ record: StackRecord, _ move: CompletedMove) {
        service.turn.noteApplied(record)
        service.changed(record, groups: GroupChange.list(GroupChange(id: move.group), then: move.dropped))
        service.announcer.applied(record, move)
    }

    /// The owner said the group in flight can never be applied: it is gone,
    /// and the group below it took over its state tag.
    func droppedObsolete(_ record: StackRecord, group: UInt64) {
        let below = record.stack.topUndoGroup.map { [GroupChange(id: $0.id)] } ?? []
        service.changed(record, groups: [GroupChange(id: group)] + below)
    }

    /// The apply in flight ended: settings that waited for it apply now.
    func settleSettings(of record: StackRecord) {
        service.settleSettings(of: record)
    }
}
