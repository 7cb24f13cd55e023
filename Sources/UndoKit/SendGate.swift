import Locking

/// Whether a call may still be sent: cancelling before it is sent keeps it
/// from being sent; after, it changes nothing.
final class SendGate: Sendable {
    private let state = Lock<(cancelled: Bool, sent: Bool)>((false, false))

    /// The task was cancelled.
    func cancel() { state.withLock { $0.cancelled = true } }

    /// Marks the call sent, unless it was cancelled first.
    func mayBeSent() -> Bool {
        state.withLock { state in
            guard !state.cancelled else { return false }
            state.sent = true
            return true
        }
    }
}
