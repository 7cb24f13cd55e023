import Undo1
import UndoCore

/// Runs each stack's `ApplyQueue`: takes the top group in flight, asks the
/// owner to apply it through the `ApplyTransport` without blocking, and on
/// the answer commits the move, drops an obsolete group, or puts the stack
/// back exactly as it was. Every call is bounded by `apply.timeout_ms`:
/// then the caller hears `Timeout`, but the owner may still apply the
/// payloads, so the stack waits for that late answer (`Busy` meanwhile) and
/// it decides the move as a timely one would — no group is handed to an app
/// twice in a row for the same direction. The wait ends only when the
/// owner answers or leaves the bus: no timer ever ends it, since a reply the
/// bus lost would otherwise have the same group handed out again (the
/// transport sets none).
///
/// One timer, the alarm, serves every apply's deadline: it is set for the
/// earliest deadline out (or earlier) and, when it rings, times out what is
/// due and is set again for the next. An apply that ends leaves it alone,
/// so a stream of undos sets a timer about once a timeout, not twice an
/// undo (setting and cancelling a timer costs more than the rest of an
/// apply's bookkeeping).
final class Applier {
    /// The service, which owns the applier and outlives it: the daemon
    /// makes one service for its whole run.
    private unowned let host: any ApplyHost
    private let transport: any ApplyTransport
    private let scheduler: any Scheduler
    private var attempts: UInt64 = 0
    /// The stacks with an apply out or requests waiting, by number: an
    /// owner leaving fails theirs without looking at its other stacks.
    private var busy: [UInt64: StackRecord] = [:]
    /// When the alarm rings (the scheduler's nanoseconds), and its timer;
    /// nil while none is set. Never later than any deadline out.
    private var alarm: (at: Int64, timer: ScheduledTimer)?

    /// An applier reporting to `host`, reaching applications through `transport`.
    init(host: any ApplyHost, transport: any ApplyTransport, scheduler: any Scheduler) {
        self.host = host
        self.transport = transport
        self.scheduler = scheduler
    }

    /// Queues `request` (`QueueFull` when `limit` already wait behind an
    /// apply in flight); it starts at once when nothing is in flight.
    func enqueue(_ request: ApplyQueue.Request, on record: StackRecord, limit: UInt32) {
        var request = request
        // One that starts as it comes was asked of the stack focused now:
        // focus is looked up again only for one that waits (`startNext`).
        if record.applies.isIdle { request.followsFocus = false }
        do throws(ServiceError) {
            try record.applies.admit(request, limit: limit)
        } catch {
            return request.completion(.failure(error))
        }
        busy[record.number] = record
        startNext(on: record)
    }

    /// `owner` left the bus: on each stack of its with an apply out or
    /// waiting, everything fails with `NoOwner` (`ownerLeft(_:)`).
    func ownerLeft(_ owner: StackOwner) {
        for record in busy.values where record.ownership === owner { ownerLeft(record) }
    }

    /// The owner left (or the stack closes): the apply in flight and every
    /// waiting request fail with `NoOwner`, the stack unchanged.
    func ownerLeft(_ record: StackRecord) {
        if let inFlight = record.applies.inFlight {
            record.applies.inFlight = nil
            _ = record.stack.abortInFlight()
            if !inFlight.late { inFlight.request.completion(.failure(.noOwner)) }
        }
        for request in record.applies.takeWaiting() { request.completion(.failure(.noOwner)) }
        if record.applies.inFlight == nil { busy[record.number] = nil }
    }

    private func startNext(on record: StackRecord) {
        while record.applies.inFlight == nil, let request = record.applies.next() {
            guard record.isAttached else {
                request.completion(.failure(.noOwner))
                continue
            }
            // The owner may have opted out while the request waited.
            guard request.caller == record.owner || record.globalTrigger else {
                request.completion(.failure(.triggerDisabled))
                continue
            }
            // A trigger's request that waited behind another: focus may have moved meanwhile.
            if request.followsFocus, !host.isFocused(record) {
                request.completion(.failure(.noFocusedStack(.moved(from: record.displayName))))
                continue
            }
            if let expected = request.expectedGroup {
                let next = request.direction == .undo ? record.stack.topUndoGroup : record.stack.topRedoGroup
                guard next?.id == expected.id, next?.time == expected.time else {
                    request.completion(.failure(.groupMoved(request.direction, name: expected.name)))
                    continue
                }
            }
            if let refusal = host.loadActions(for: request.direction, of: record) {
                request.completion(.failure(refusal))
                continue
            }
            let apply: StartedMove
            do {
                apply = request.direction == .undo ? try record.stack.beginUndo() : try record.stack.beginRedo()
            } catch {
                request.completion(.failure(.model(error)))
                continue
            }
            call(apply, on: record, for: request)
        }
        if record.applies.inFlight == nil { busy[record.number] = nil }
    }

    private func call(_ apply: StartedMove, on record: StackRecord, for request: ApplyQueue.Request) {
        attempts += 1
        let attempt = attempts
        let timeout = Int(host.applyTimeoutMilliseconds)
        let deadline = scheduler.nanoseconds + Int64(timeout) * 1_000_000
        record.applies.inFlight = ApplyQueue.InFlight(
            request: request, attempt: attempt, deadline: deadline, timeoutMilliseconds: UInt32(timeout),
            move: PendingMove(direction: apply.direction, group: apply.group, name: apply.name))
        setAlarm(for: deadline)
        let arguments = ApplyArguments(stack: record.path, group: apply.group,
                                       direction: apply.direction == .undo ? .undo : .redo, payloads: apply.payloads)
        // The alarm answers the caller; the transport waits on for a late
        // answer. Its closure holds the applier and the record strongly (a
        // weak reference gives an object a side table, and every retain and
        // release of it then takes the slow path) until the owner answers or
        // leaves; a stack closed meanwhile has no apply in flight, so
        // `finish` ignores it.
        transport.apply(arguments, at: record.owner) {
            [self, record] answer in
            finish(record, attempt: attempt, answer: answer)
        }
    }

    /// Makes sure the alarm rings by `deadline`.
    private func setAlarm(for deadline: Int64) {
        if let alarm {
            guard deadline < alarm.at else { return }
            alarm.timer.cancel()
        }
        // Whole milliseconds, rounded up: it never rings before the deadline.
        let wait = max(0, (deadline - scheduler.nanoseconds + 999_999) / 1_000_000)
        // Held strongly: the scheduler lets go when it rings, at most a
        // timeout from now, and it is not set again once nothing is out.
        alarm = (deadline, scheduler.schedule(afterMilliseconds: Int(wait)) { [self] in ring() })
    }

    /// The alarm rang: every apply whose deadline has come times out (its
    /// caller hears `Timeout`), and the alarm is set for the next deadline.
    private func ring() {
        alarm = nil
        let now = scheduler.nanoseconds
        var due: [(record: StackRecord, attempt: UInt64, deadline: Int64)] = []
        var next: Int64?
        for record in busy.values {
            guard let inFlight = record.applies.inFlight, !inFlight.late else { continue }
            if inFlight.deadline <= now {
                due.append((record, inFlight.attempt, inFlight.deadline))
            } else {
                next = min(next ?? inFlight.deadline, inFlight.deadline)
            }
        }
        if let next { setAlarm(for: next) }
        // In the order they fell due, as one timer each would have fired.
        for entry in due.sorted(by: { $0.deadline < $1.deadline }) {
            finish(entry.record, attempt: entry.attempt, answer: nil)
        }
    }

    /// The owner answered (or `answer` is nil: the time ran out).
    private func finish(_ record: StackRecord, attempt: UInt64, answer: ApplyAnswer?) {
        guard let inFlight = record.applies.inFlight, inFlight.attempt == attempt else { return }
        guard let answer else {
            // The caller hears Timeout now; the move waits for the late answer.
            inFlight.late = true
            inFlight.request.completion(.failure(.timeout(milliseconds: inFlight.timeoutMilliseconds)))
            let refusal = ServiceError.awaitingLateAnswer(inFlight.move.direction, name: inFlight.move.name)
            for request in record.applies.takeWaiting() { request.completion(.failure(refusal)) }
            return
        }
        record.applies.inFlight = nil
        // A late answer: its caller was answered already.
        let completion: ApplyQueue.Completion = inFlight.late ? { _ in } : inFlight.request.completion
        switch answer {
        case .applied:
            if let move = record.stack.commitInFlight() {
                host.applied(record, move)
                completion(.success(move))
            }
        case .obsolete:
            if let dropped = record.stack.dropInFlightAsObsolete() {
                host.droppedObsolete(record, group: dropped.group)
            }
            completion(.failure(.obsolete))
        case .ownerGone:
            _ = record.stack.abortInFlight()
            completion(.failure(.noOwner))
        case .failed(let name, let message):
            _ = record.stack.abortInFlight()
            completion(.failure(.clientFailed(name: name, message: message)))
        }
        host.settleSettings(of: record)
        startNext(on: record)
    }
}
