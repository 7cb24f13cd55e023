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
/// Bounded: while the lane holds `fullBytes` or `fullCount`, the connection
/// takes no more from libdbus, whose own limit then stops reading the
/// socket, as it did before there was a lane.
struct IncomingLanes<Item> {
    /// The size from which a method call waits in the lane (64 KiB).
    static var largeCallBytes: Int { 64 << 10 }
    /// The bytes held at which the lane is full (8 MiB).
    static var fullBytes: Int { 8 << 20 }
    /// The messages held at which the lane is full.
    static var fullCount: Int { 256 }

    /// The messages held, in arrival order.
    private var held: [(sender: String, bytes: Int, item: Item)] = []
    /// How many held messages each sender has.
    private var heldBySender: [String: Int] = [:]
    private var heldBytes = 0

    /// Whether nothing is held.
    var isEmpty: Bool { held.isEmpty }

    /// Whether the longest-held message is a large call (what a connection
    /// may be told to keep waiting: `Connection.mayHandleLargeCall`).
    var nextIsLarge: Bool { held.first.map { $0.bytes >= Self.largeCallBytes } ?? false }

    /// Whether the connection should stop taking messages from libdbus
    /// until some held ones have been handled.
    var isFull: Bool { heldBytes >= Self.fullBytes || held.count >= Self.fullCount }

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

    /// Puts a message that `mustHold` at the end of the lane.
    mutating func hold(_ item: Item, sender: String, bytes: Int) {
        held.append((sender, bytes, item))
        heldBySender[sender, default: 0] += 1
        heldBytes += bytes
    }

    /// The longest-held message, taken out of the lane; nil when none is held.
    mutating func next() -> Item? {
        guard !held.isEmpty else { return nil }
        let (sender, bytes, item) = held.removeFirst()
        if heldBySender[sender] == 1 { heldBySender[sender] = nil } else { heldBySender[sender]! -= 1 }
        heldBytes -= bytes
        return item
    }

    /// Drops every held message (the connection is closing).
    mutating func removeAll() {
        held.removeAll()
        heldBySender.removeAll()
        heldBytes = 0
    }
}
