import DBus
import Undo1
import UndoCore

/// Runs each stack's `ApplyQueue`: takes the top group in flight, calls the
/// owner's `Client.Apply` by its unique name without blocking, and on the
/// answer commits the move, drops an obsolete group, or puts the stack back
/// exactly as it was. A timer bounds every call by `apply.timeout_ms`.
final class Applier {
    private unowned let service: UndoService
    private var attempts: UInt64 = 0

    init(service: UndoService) {
        self.service = service
    }

    /// Queues `request`; it starts at once when nothing is in flight.
    func enqueue(_ request: ApplyQueue.Request, on record: StackRecord) {
        record.applies.waiting.append(request)
        startNext(on: record)
    }

    /// The owner left (or the stack closes): the apply in flight and every
    /// waiting request fail with `NoOwner`, the stack unchanged.
    func ownerLeft(_ record: StackRecord) {
        if let inFlight = record.applies.inFlight {
            record.applies.inFlight = nil
            service.loop.remove(inFlight.timer)
            _ = record.stack.abortInFlight()
            inFlight.request.completion(.failure(.noOwner))
        }
        let waiting = record.applies.waiting
        record.applies.waiting.removeAll()
        for request in waiting { request.completion(.failure(.noOwner)) }
    }

    private func startNext(on record: StackRecord) {
        while record.applies.inFlight == nil, !record.applies.waiting.isEmpty {
            let request = record.applies.waiting.removeFirst()
            guard record.isAttached else {
                request.completion(.failure(.noOwner))
                continue
            }
            // The owner may have opted out while the request waited.
            guard request.caller == record.owner || record.globalTrigger else {
                request.completion(.failure(.triggerDisabled))
                continue
            }
            if let expected = request.expectedGroup {
                let next = request.direction == .undo ? record.stack.topUndoGroup : record.stack.topRedoGroup
                guard next?.id == expected.id, next?.time == expected.time else {
                    request.completion(.failure(.groupMoved(request.direction, name: expected.name)))
                    continue
                }
            }
            service.loadTopActions(of: record)
            let apply: ApplyRequest
            do {
                apply = request.direction == .undo ? try record.stack.beginUndo() : try record.stack.beginRedo()
            } catch {
                request.completion(.failure(.model(error)))
                continue
            }
            call(apply, on: record, for: request)
        }
    }

    private func call(_ apply: ApplyRequest, on record: StackRecord, for request: ApplyQueue.Request) {
        attempts += 1
        let attempt = attempts
        let timeout = service.config.applyTimeoutMilliseconds
        let message: Message
        do {
            message = try Undo1Call.applyInClient(record.owner, ApplyArguments(
                stack: record.path, group: apply.group, direction: apply.direction == .undo ? .undo : .redo,
                payloads: apply.payloads))
        } catch {
            _ = record.stack.abortInFlight()
            request.completion(.failure(.clientFailed(name: error.name, message: error.message)))
            return
        }
        let timer = service.loop.schedule(afterMilliseconds: Int(timeout)) { [weak self, weak record] in
            guard let self, let record else { return }
            self.finish(record, attempt: attempt, answer: nil)
        }
        record.applies.inFlight = ApplyQueue.InFlight(request: request, attempt: attempt, timer: timer)
        // libdbus's own timeout is a backstop; ours decides.
        service.connection.call(message, timeoutMilliseconds: Int(timeout) + 1_000) { [weak self, weak record] answer in
            guard let self, let record else { return }
            self.finish(record, attempt: attempt, answer: answer)
        }
    }

    /// The owner answered (or `answer` is nil: the time ran out).
    private func finish(_ record: StackRecord, attempt: UInt64, answer: Result<Message, DBusError>?) {
        guard let inFlight = record.applies.inFlight, inFlight.attempt == attempt else { return }
        record.applies.inFlight = nil
        service.loop.remove(inFlight.timer)
        let completion = inFlight.request.completion
        switch answer {
        case nil:
            _ = record.stack.abortInFlight()
            completion(.failure(.timeout(milliseconds: service.config.applyTimeoutMilliseconds)))
        case .success:
            if let move = record.stack.commitInFlight() {
                let outcome = ApplyOutcome(direction: move.direction, group: move.group, name: move.name)
                service.applied(record, outcome, dropped: move.dropped)
                completion(.success(outcome))
            }
        case .failure(let error) where error.name == Undo1ErrorName.obsolete.rawValue:
            if let dropped = record.stack.dropInFlightAsObsolete() {
                service.droppedObsolete(record, group: dropped.group)
            }
            completion(.failure(.obsolete))
        case .failure(let error) where Self.ownerGone.contains(error.name):
            _ = record.stack.abortInFlight()
            completion(.failure(.noOwner))
        case .failure(let error):
            _ = record.stack.abortInFlight()
            completion(.failure(.clientFailed(name: error.name, message: error.message)))
        }
        service.settleSettings(of: record)
        startNext(on: record)
    }

    /// Errors that mean the owner is no longer there to answer.
    private static let ownerGone: Set<String> = [
        DBusError.Names.noReply, DBusError.Names.serviceUnknown, DBusError.Names.disconnected,
        DBusError.Names.nameHasNoOwner,
    ]
}
