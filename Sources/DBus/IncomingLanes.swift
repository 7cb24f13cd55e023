import Loop

/// The order a connection handles what arrives: a large method call waits
/// in a lane of its own, so that small calls from other clients overtake
/// it instead of queueing behind a flood.
///
/// Why: a client pushing 1 MiB groups from four connections kept four of
/// them read and queued ahead of every other caller, and each took undod
/// milliseconds to store; a healthy client's small call waited for all
/// four. Now it waits for none: the one held message let through a turn is
/// handled after that turn's other work is committed and answered, in a
/// step of its own (`EventLoop.addAfterTurnHook`).
///
/// What stays in order: everything one sender sends (once it has a held
/// message, all it sends after waits behind it, replies included), and
/// every signal with respect to held messages (a `NameOwnerChanged` saying
/// a client left is never handled before that client's held calls). Only
/// a small method call or reply from a sender with nothing held goes ahead.
/// With nothing held, everything is handled in arrival order, as before.
///
/// Prepared: a large call may come with work to do for it off the loop
/// before it is handled (its method declares it, `Interface.preparing`:
/// undod writes a large push's payloads to a file). That work starts once the call is the
/// longest held (`takePreparation`), one call at a time, and the call
/// waits until it is ready (`markReady`); what its sender sent after it
/// waits too, and other senders go on.
///
/// Bounded: while the lane holds `fullBytes` or `fullCount`, a large method
/// call that would wait in it is refused at once
/// (`Connection.refusalWhenFull`), and so is a small one once the lane
/// holds twice as much (`mustRefuse`: a sender's small call right behind
/// its own large one still waits its turn); signals and replies are always
/// kept, and the connection reads on:
/// were it to stop reading, the bus would queue what comes next until its
/// limit for the connection (`max_outgoing_bytes`), then refuse callers
/// and drop signals and replies — a `NameOwnerChanged` or an `Apply`'s
/// answer lost for good. A call whose preparation is under way is not counted in the
/// bytes (it is already read, and one at a time): a 60 MiB push being
/// written must not stop the connection from serving everyone else.
struct IncomingLanes<Item> {
    /// The size from which a method call waits in the lane (64 KiB).
    static var largeCallBytes: Int { 64 << 10 }
    /// The bytes held at which the lane is full (8 MiB).
    static var fullBytes: Int { 8 << 20 }
    /// The messages held at which the lane is full.
    static var fullCount: Int { 256 }

    /// The messages held, in arrival order, each with when it was held
    /// (`SystemTime.monotonicNanoseconds`).
    private var held: [(sender: String, bytes: Int, since: Int64, token: Int, item: Item, prepare: Preparation?)] = []
    /// The token of the longest-held message while its preparation is
    /// under way.
    private var preparing: (token: Int, bytes: Int)?
    /// The token the next held message gets.
    private var lastToken = 0
    /// How many held messages each sender has.
    private var heldBySender: [String: Int] = [:]
    private var heldBytes = 0

    /// Whether nothing is held.
    var isEmpty: Bool { held.isEmpty }

    /// Work to do off the loop for a held call before it is handled: it
    /// starts it and answers true, then `ready` is called on the loop once
    /// it is done; false when there is nothing to do.
    typealias Preparation = (_ ready: @escaping () -> Void) -> Bool

    /// Whether the longest-held message is neither waiting to start its
    /// preparation nor waiting for it to end.
    var nextIsReady: Bool { held.first.map { $0.prepare == nil && $0.token != preparing?.token } ?? false }

    /// Whether the longest-held message is a large call (which goes only
    /// once the socket has been quiet: `largeCallMayGo`).
    var nextIsLarge: Bool { held.first.map { $0.bytes >= Self.largeCallBytes } ?? false }

    /// How long the socket must have been quiet before a held large call
    /// is handled (1 ms, in nanoseconds).
    static var quietBeforeLargeCall: Int64 { 1_000_000 }
    /// How long a large call waits for that quiet at most (25 ms).
    static var longestQuietWait: Int64 { 25_000_000 }

    /// When (`SystemTime.monotonicNanoseconds`) the longest-held message may be handled as
    /// far as the socket is concerned, given when it was last read: once it
    /// has been quiet `quietBeforeLargeCall`, or once the message has
    /// waited `longestQuietWait`. nil when nothing is held.
    ///
    /// Why: the bus writes to us a socket buffer at a time (about 200 KiB)
    /// and must be woken to write more. The moment we have read all there
    /// is, it may not have been scheduled yet to refill it; handling a large
    /// call then (milliseconds of work) left a healthy client's small call
    /// queued in the bus behind the next megabytes for that long, two or
    /// three times over. Waiting for a quiet millisecond reads on until the
    /// bus has nothing more for us, so that small call is found and goes
    /// first (a healthy Push's 99th percentile under a flood of 1 MiB
    /// pushes went from 16-22 ms to 8-12 ms); the bound keeps large calls
    /// from waiting for ever on a socket that never falls quiet.
    func largeCallMayGo(lastReadAt: Int64) -> Int64? {
        guard let since = held.first?.since else { return nil }
        return min(lastReadAt + Self.quietBeforeLargeCall, since + Self.longestQuietWait)
    }

    /// Whether the connection should stop routing and reading until some
    /// held ones have been handled.
    var isFull: Bool {
        heldBytes - (preparing?.bytes ?? 0) >= Self.fullBytes || held.count >= Self.fullCount
    }

    /// Whether a method call of `bytes` that must wait is refused instead:
    /// a large one while the lane is full, a small one while it holds twice
    /// what makes it full.
    func mustRefuse(callOf bytes: Int) -> Bool {
        guard isFull else { return false }
        return bytes >= Self.largeCallBytes || heldBytes >= 2 * Self.fullBytes || held.count >= 2 * Self.fullCount
    }

    /// Whether a message that arrived must wait in the lane (`hold`) rather
    /// than be handled now.
    func mustHold(_ kind: Message.Kind, sender: String, bytes: Int) -> Bool {
        let senderHasHeld = heldBySender[sender] != nil
        switch kind {
        case .methodCall: return bytes >= Self.largeCallBytes || senderHasHeld
        case .methodReturn, .error: return senderHasHeld
        case .signal, .other: return !isEmpty
        }
    }

    /// Puts a message that `mustHold` at the end of the lane, held `since`,
    /// with the work to do for it before it is handled, if any.
    mutating func hold(_ item: Item, sender: String, bytes: Int, since: Int64, prepare: Preparation? = nil) {
        lastToken += 1
        held.append((sender, bytes, since, lastToken, item, prepare))
        heldBySender[sender, default: 0] += 1
        heldBytes += bytes
    }

    /// The longest-held message's preparation, to be started now, with
    /// the token its `ready` must name; nil when it has none left to start.
    mutating func takePreparation() -> (token: Int, prepare: Preparation)? {
        guard let first = held.first, let prepare = first.prepare else { return nil }
        held[0].prepare = nil
        preparing = (first.token, first.bytes)
        return (first.token, prepare)
    }

    /// The preparation of message `token` is done (or never started); a
    /// message no longer held is ignored.
    mutating func markReady(_ token: Int) {
        if preparing?.token == token { preparing = nil }
    }

    /// The longest-held message, taken out of the lane; nil when none is held.
    mutating func next() -> Item? {
        guard !held.isEmpty else { return nil }
        let (sender, bytes, _, token, item, _) = held.removeFirst()
        if preparing?.token == token { preparing = nil }
        if heldBySender[sender] == 1 { heldBySender[sender] = nil } else { heldBySender[sender]! -= 1 }
        heldBytes -= bytes
        return item
    }

    /// Drops every held message (the connection is closing).
    mutating func removeAll() {
        held.removeAll()
        preparing = nil
        heldBySender.removeAll()
        heldBytes = 0
    }
}
