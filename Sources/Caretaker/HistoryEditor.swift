import Logging
import UndoCore
import UndoStore

/// What an owner changes in its stack's history, for the service: `Push`
/// and `PushGroup`, `SetClean`, `Clear`. Each is checked first (the owner,
/// no apply in flight, a push's hints, ids reserved, a group that fits one
/// `Apply`), backed up for the turn, made on the model, then stored and
/// announced; a push is kept within `limits.max_total_bytes`, which the
/// least recently active stacks pay for (`enforceBudget`).
final class HistoryEditor {
    /// The most a group's payloads of one direction may take on the wire:
    /// `Apply` carries them in one `aay`, and D-Bus refuses an array over
    /// 64 MiB (each payload costs up to 7 bytes of framing).
    static let sendableBytes = (64 << 20) - (64 << 10)

    /// The service, which owns this and outlives it.
    private unowned let service: UndoService

    /// The editor of `service`'s histories.
    init(of service: UndoService) {
        self.service = service
    }

    /// Pushes a group of `actions` named `name` to `record` for `caller`.
    func push(_ record: StackRecord, caller: String, name: String, actions: EncodedActions,
              hints: PushHints) throws(ServiceError) -> PushResult {
        // Taken once: every read of an unowned reference retains it anew.
        let service = self.service
        try service.requireOwner(record, caller)
        try OptionRules.check(hints)
        // Read in place: `record.stack.…` copied the model whole here.
        if let inFlight = record.readingStack({ $0.inFlight }) { throw .model(.busy(inFlight.direction)) }
        try service.requireReserved(stacks: 0, groups: 1)
        let now = service.clock.now
        // Only a push with a merge key merges, and only into a top group
        // whose payloads are loaded (`MergeRule`): none is read for others.
        var merges = false
        if !hints.mergeKey.isEmpty {
            do {
                try service.store.loadActions(ofTop: .undo, in: record)
            } catch {
                // Not applied here: a push that cannot merge makes a group of its own.
                service.log.error(.payloadsUnreadable, "\(record.displayName): cannot read payloads from the history store: \(error)")
            }
            merges = record.readingStack { $0.mayMerge(hints: hints, now: now) }
        }
        try Self.checkSendable(actions, mergingInto: merges ? record.stack.topUndoGroup : nil)
        service.turn.willChange(record)
        let registry = service.registry
        let result: PushResult
        // The ids are taken out and put back rather than lent in place: a
        // registry property lent across a call into the model would be
        // checked at run time at every use (`ARCHITECTURE.md`,
        // "Exclusivity, checked where it must be").
        var ids = registry.groupIDs
        do {
            result = try record.stack.push(name: name, actions: actions, hints: hints, now: now, ids: &ids)
            registry.groupIDs = ids
        } catch {
            registry.groupIDs = ids
            throw .model(error)
        }
        if service.settings.focusFollowsPush { service.stackFocus.noteActivity(of: record) }
        registry.countBytes(of: record)
        enforceBudget(protecting: record)
        service.changed(record, groups: GroupChange.list(GroupChange(id: result.group, actionsChanged: true),
                                                         then: result.discarded, result.dropped))
        service.announcer.pushed(record, result, name: name)
        return result
    }

    /// The refusal of a push to `record` whose payloads alone, `bytes`,
    /// exceed its `MaxBytes`: the owner's `PayloadTooLarge`, anyone
    /// else's `NotOwner`, as `push` would refuse it.
    func refusalOfOversizedPush(_ record: StackRecord, caller: String, bytes: UInt64) -> ServiceError {
        do throws(ServiceError) {
            try service.requireOwner(record, caller)
            return .model(.payloadTooLarge(bytes: bytes, maxBytes: record.stack.settings.maxBytes))
        } catch {
            return error
        }
    }

    /// Marks `record`'s present state clean, for `caller`.
    func setClean(_ record: StackRecord, caller: String) throws(ServiceError) {
        try service.requireOwner(record, caller)
        if let inFlight = record.stack.inFlight { throw .model(.busy(inFlight.direction)) }
        service.turn.willChange(record)
        do throws(UndoError) { try record.stack.setClean() } catch { throw .model(error) }
        service.changed(record)
    }

    /// Drops `record`'s whole history, for `caller`.
    func clear(_ record: StackRecord, caller: String) throws(ServiceError) {
        try service.requireOwner(record, caller)
        if let inFlight = record.stack.inFlight { throw .model(.busy(inFlight.direction)) }
        let groups = UndoService.allGroups(of: record.stack)
        service.turn.willChange(record)
        do throws(UndoError) { try record.stack.clear() } catch { throw .model(error) }
        service.changed(record, groups: groups)
    }

    /// `limits.max_total_bytes`: the least recently active stacks lose their
    /// oldest groups first. A push never loses the group it just made:
    /// `protecting`'s top group is left out of what may go.
    func enforceBudget(protecting pushed: StackRecord? = nil) {
        let service = self.service
        let registry = service.registry
        let maxTotalBytes = service.settings.maxTotalBytes
        guard registry.totalBytes > maxTotalBytes else { return }
        let candidates = registry.all.map { record -> GlobalBudget.Candidate<[UInt64]> in
            var evictable = Array(record.stack.evictableGroupBytes)
            if record === pushed, record.stack.redoDepth == 0, !evictable.isEmpty { evictable.removeLast() }
            return GlobalBudget.Candidate(stack: record.number, bytes: record.stack.bytes,
                                          lastActive: Int64(clamping: record.activity), evictable: evictable)
        }
        for cut in GlobalBudget(maxTotalBytes: maxTotalBytes).plan(candidates) where cut.groups > 0 {
            guard let record = registry.byNumber[cut.stack] else { continue }
            service.turn.willChange(record)
            let dropped = record.stack.dropOldest(cut.groups)
            service.log.debug("\(record.displayName) lost \(cut.groups) old groups to limits.max_total_bytes.")
            service.changed(record, groups: dropped.map { GroupChange(id: $0) })
        }
    }

    /// Refuses a push whose group (with the top group, when it may merge)
    /// could not be sent back to its owner in one `Apply`.
    static func checkSendable(_ actions: EncodedActions, mergingInto top: ActionGroup?) throws(ServiceError) {
        let kept = top.map { ActionCoding.directionSizes($0.encodedActions, framing: 7) } ?? (0, 0)
        let undo = kept.0 + Int(actions.undoBytes) + 7 * actions.count
        let redo = kept.1 + Int(actions.redoBytes) + 7 * actions.count
        guard max(undo, redo) <= sendableBytes else { throw .tooLargeToSend(bytes: max(undo, redo)) }
    }
}
