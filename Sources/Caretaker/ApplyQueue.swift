package import UndoCore

/// One stack's undo/redo requests: at most one in flight (its `Apply` out
/// to the owner), at most `apply.queue` waiting behind it, in order. The
/// `Applier` runs it.
package final class ApplyQueue {
    /// What a finished request answers: the group moved and its name.
    package typealias Completion = (Result<CompletedMove, ServiceError>) -> Void

    /// A request waiting its turn.
    struct Request {
        /// Undo or redo.
        let direction: Direction
        /// Who asked (a unique name), or nil for an internal trigger.
        let caller: String?
        /// Where the answer goes.
        let completion: Completion
        /// The group that must be the next one to move, as it was when
        /// offered (a notification's button): its id, and its time, which a
        /// merge moves on. nil for whatever is next.
        var expectedGroup: ExpectedGroup? = nil
        /// Whether it was asked of the focused stack (`UndoFocused`, a key):
        /// it goes ahead only if the stack is still focused at its turn.
        var followsFocus = false
    }

    /// The request whose `Apply` is out, and how to recognise its answer.
    /// A class: as a struct of this size, its copies and its destruction
    /// went through its type's value witnesses at every answer, where a
    /// class's deinit is plain code.
    final class InFlight {
        let request: Request
        /// Distinguishes this attempt's answer from a late one of an earlier attempt.
        let attempt: UInt64
        /// When it fails with `Timeout` (the scheduler's nanoseconds; the
        /// applier's alarm rings for it).
        let deadline: Int64
        /// `apply.timeout_ms` as it was when the apply went out, which
        /// `Timeout` names (a reload meanwhile changes neither).
        let timeoutMilliseconds: UInt32
        /// The group asked for (its direction and name), for `Busy`'s sentence.
        let move: PendingMove
        /// Whether its caller was already answered `Timeout`: the stack then
        /// waits for the owner's late answer, which still decides the move.
        var late = false

        /// The apply of `request` out as `attempt`, due by `deadline`.
        init(request: Request, attempt: UInt64, deadline: Int64, timeoutMilliseconds: UInt32, move: PendingMove) {
            self.request = request
            self.attempt = attempt
            self.deadline = deadline
            self.timeoutMilliseconds = timeoutMilliseconds
            self.move = move
        }
    }

    /// The waiting requests, oldest first.
    private var waiting: [Request] = []
    /// The request being applied, if any.
    var inFlight: InFlight?

    /// Whether an `Apply` is out for this stack.
    package var isApplying: Bool { inFlight != nil }

    /// Whether nothing is out or waiting: a request admitted now starts at once.
    var isIdle: Bool { inFlight == nil && waiting.isEmpty }

    /// Adds `request` at the back; `QueueFull` when an apply is in flight
    /// and `limit` requests already wait (the spec's `Busy`).
    func admit(_ request: Request, limit: UInt32) throws(ServiceError) {
        if let inFlight, inFlight.late { throw .awaitingLateAnswer(inFlight.move.direction, name: inFlight.move.name) }
        if isApplying, waiting.count >= Int(limit) { throw .queueFull(limit: limit) }
        waiting.append(request)
    }

    /// Takes the oldest waiting request.
    func next() -> Request? {
        waiting.isEmpty ? nil : waiting.removeFirst()
    }

    /// Takes every waiting request.
    func takeWaiting() -> [Request] {
        defer { waiting.removeAll() }
        return waiting
    }
}
