import Loop
import SystemClock

/// What a connection holds back behind large calls, and when each may go:
/// the lane (`IncomingLanes`, which says the order) driven in time — a
/// large call is routed once it heads the lane and its method's work
/// started (`Interface.preparing`); it goes once that work is done and the
/// socket has been quiet a millisecond; one message a turn, in the step
/// after the turn (`release`). Confined to the loop.
final class HeldMessages {
    private let loop: EventLoop
    private var lanes = IncomingLanes<() -> Void>()
    /// Whether the socket was read in this turn.
    private var readThisTurn = false
    /// When the socket was last read (`SystemTime.monotonicNanoseconds`).
    private var lastReadAt: Int64 = 0
    /// The timer that wakes the loop once a held large call may go (see
    /// `socketWasQuietLongEnough`).
    private var quietTimer: EventLoop.Token?

    /// Nothing held yet, on `loop`.
    init(loop: EventLoop) {
        self.loop = loop
    }

    deinit {
        if let quietTimer { loop.remove(quietTimer) }
    }

    /// The socket was just read (`Connection.readable`).
    func socketWasRead() {
        readThisTurn = true
        lastReadAt = SystemTime.monotonicNanoseconds
    }

    /// Whether a message that arrived must wait rather than be handled now
    /// (`IncomingLanes.mustHold`).
    func mustHold(_ kind: Message.Kind, sender: String, bytes: Int) -> Bool {
        lanes.mustHold(kind, sender: sender, bytes: bytes)
    }

    /// Whether a method call of `bytes` that must wait is refused instead
    /// (`IncomingLanes.mustRefuse`).
    func mustRefuse(callOf bytes: Int) -> Bool {
        lanes.mustRefuse(callOf: bytes)
    }

    /// Holds `work` (a signal's handlers, a reply's) at the end of the lane.
    func hold(_ work: @escaping () -> Void, sender: String) {
        lanes.hold(work, sender: sender, bytes: 0, since: SystemTime.monotonicNanoseconds)
    }

    /// Holds a method call at the end of the lane. A large one is routed as
    /// soon as it is the longest held (`startPreparing`), so that its
    /// method's preparation can start; it is then served by what it was
    /// routed to, not routed again (`ObjectServer.serve`).
    func holdCall(_ message: Message, sender: String, bytes: Int, server: ObjectServer) {
        let early = EarlyRoute()
        let serve = { [weak server] in
            guard let server else { return }
            if let routed = early.routed { server.serve(routed, message: message) } else { server.dispatch(message) }
        }
        var preparation: IncomingLanes<() -> Void>.Preparation?
        if bytes >= IncomingLanes<() -> Void>.largeCallBytes {
            preparation = { [weak server] ready in
                guard let server else { return false }
                let routed = server.route(message)
                early.routed = routed
                guard let prepare = routed.prepare else { return false }
                return prepare { prepared in
                    early.routed = RoutedCall(serve: prepared, prepare: nil, generation: routed.generation)
                    ready()
                }
            }
        }
        lanes.hold(serve, sender: sender, bytes: bytes, since: SystemTime.monotonicNanoseconds, prepare: preparation)
    }

    /// Where a held call was routed, once it has been (`holdCall`).
    private final class EarlyRoute {
        var routed: RoutedCall?
    }

    /// Starts the preparation of the longest-held call, if it has one not
    /// started yet.
    func startPreparing() {
        // Checked first: nothing held is every turn's case, and a lane's
        // mutating call costs an exclusivity check.
        guard !lanes.isEmpty, let (token, prepare) = lanes.takePreparation() else { return }
        if !prepare({ [weak self] in self?.lanes.markReady(token) }) { lanes.markReady(token) }
    }

    /// Whether a held message may be handled now, as far as its
    /// preparation and the socket's quiet are concerned (a full lane
    /// always may, once the message is prepared).
    var mayGo: Bool {
        !lanes.isEmpty && lanes.nextIsReady && (lanes.isFull || !lanes.nextIsLarge || socketWasQuietLongEnough())
    }

    /// Whether the lane's large call may go by the socket's quiet
    /// (`IncomingLanes.largeCallMayGo`); if not, a timer wakes the loop
    /// when it may, so the loop sleeps rather than spin.
    private func socketWasQuietLongEnough() -> Bool {
        let now = SystemTime.monotonicNanoseconds
        guard let mayGoAt = lanes.largeCallMayGo(lastReadAt: lastReadAt), now < mayGoAt else { return true }
        if quietTimer == nil {
            let left = mayGoAt - now
            quietTimer = loop.schedule(afterMilliseconds: Int((left + 999_999) / 1_000_000)) { [weak self] in
                self?.quietTimer = nil
            }
        }
        return false
    }

    /// After a turn has been committed and answered, handles one held
    /// message (a large call only once prepared and once the socket has
    /// been quiet a millisecond), if the socket ran dry (the turn read
    /// nothing) or the lane is full: while the bus still sends, reading on
    /// is how a small call behind large ones is found, and it then goes
    /// first. The loop commits and answers what the held message did in a
    /// step of its own, so no small call waits for a large one's commit.
    /// Returns whether it handled one.
    func release() -> Bool {
        defer { readThisTurn = false }
        guard !readThisTurn || lanes.isFull, mayGo, let next = lanes.next() else { return false }
        next()
        startPreparing()
        return true
    }

    /// Drops everything held (the connection is closing).
    func removeAll() {
        lanes.removeAll()
        if let quietTimer { loop.remove(quietTimer) }
        quietTimer = nil
    }
}
