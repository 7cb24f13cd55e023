import DBus
import UndoCore

/// One stack's undo/redo requests: at most one in flight (its `Apply` call
/// out to the owner), the rest waiting in order. The `Applier` runs it.
public final class ApplyQueue {
    /// What a finished request answers: the group moved and its name.
    public typealias Completion = (Result<ApplyOutcome, ServiceError>) -> Void

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
    }

    /// The request whose `Apply` is out, and how to recognise its answer.
    struct InFlight {
        let request: Request
        /// Distinguishes this attempt's answer from a late one of an earlier attempt.
        let attempt: UInt64
        /// The timer that fails it with `Timeout`.
        let timer: EventLoop.Token
    }

    /// The waiting requests, oldest first.
    var waiting: [Request] = []
    /// The request being applied, if any.
    var inFlight: InFlight?

    /// Whether an `Apply` is out for this stack.
    public var isApplying: Bool { inFlight != nil }
}

/// A finished undo or redo.
public struct ApplyOutcome: Sendable, Equatable {
    /// Undo or redo.
    public var direction: Direction
    /// The group that moved.
    public var group: UInt64
    /// Its name.
    public var name: String
}
