internal import CDBus
public import Loop
#if canImport(Glibc)
internal import Glibc
#endif

/// A connection to a message bus, driven by an `EventLoop`.
///
/// Confined to the loop's thread. Calls out never block the loop: each waits
/// in `awaiting`, by its serial, with a timer of its own, and its reply
/// handler runs on the loop. Incoming method calls go to the connection's
/// `ObjectServer`, incoming signals to the subscriptions that match them,
/// replies to the calls that await them; all run after libdbus has returned,
/// never inside its callbacks.
///
/// The connection numbers every message it sends itself (libdbus would only
/// number those without a serial, and a message written by `WireEncoder`
/// has one), so that the serials of calls awaiting replies never repeat.
/// It does not use libdbus's pending calls: each one costs a preallocated
/// timeout error message and a libdbus timeout (about 27 k instructions),
/// where a reply found by its serial in the filter costs a lookup.
public final class Connection {
    /// The loop that drives this connection.
    public let loop: EventLoop
    /// This connection's unique name on the bus (`:1.42`).
    public let uniqueName: String
    /// Whether the connection is still open.
    public private(set) var isConnected = true
    /// Called once when the bus goes away (not when `close` is called).
    public var onDisconnect: (() -> Void)?
    /// Asked before a held large call is handled (see `IncomingLanes`):
    /// while it answers false, large calls wait, and what their senders
    /// sent after them and signals wait behind them, unless the lane is
    /// full; small calls of other senders go on, and the loop sleeps rather
    /// than ask again and again. Whoever answers false wakes the loop
    /// (`EventLoop.Handle.perform`) once it may answer true. undod asks its
    /// store, which holds large writes back while its log catches up.
    public var mayHandleLargeCall: () -> Bool = { true }

    let raw: OpaquePointer
    /// Receives every incoming method call; set by `ObjectServer`.
    var methodCallHandler: ((Message) -> Void)?

    // The libdbus watches and timeouts on the loop (`Connection+Watches`).
    var watchTokens: [OpaquePointer: EventLoop.Token] = [:]
    var knownTimeouts: Set<OpaquePointer> = []
    var timeoutTokens: [OpaquePointer: EventLoop.Token] = [:]
    private var workToken: EventLoop.Token?
    private var afterTurnToken: EventLoop.Token?
    /// Incoming messages waiting behind large calls (see `IncomingLanes`).
    private var lanes = IncomingLanes<() -> Void>()
    /// Whether the socket was read in this turn (set by the watch).
    var readThisTurn = false
    /// When the socket was last read (`EventLoop.now`, set by the watch).
    var lastReadAt: Int64 = 0
    /// The timer that wakes the loop once a held large call may go (see
    /// `socketWasQuietLongEnough`).
    private var quietTimer: EventLoop.Token?
    /// The signal subscriptions, by number (`Connection+Signals`).
    var subscriptions: [Int: (match: SignalMatch, handler: (Message) -> Void)] = [:]
    /// The calls sent and not answered yet, by serial.
    private var awaiting: [UInt32: Connection.AwaitedReply] = [:]
    /// The serial of the next message sent. It starts far from libdbus's
    /// own count (used only for `Hello` and its automatic replies to
    /// `Peer` calls), so the two never meet in practice; 0 is skipped.
    private var nextSerial: UInt32 = 1 << 31
    /// The number of the next subscription.
    var nextSubscription = 1
    private(set) var closed = false

    /// Opens a private connection to the bus at `address` and says Hello.
    public init(address: String, loop: EventLoop) throws(DBusError) {
        LibDBus.initialise()
        self.loop = loop
        loop.assertInLoop()
        let opened = try LibDBus.withCError { dbus_connection_open_private(address, $0) }
        guard let opened else {
            throw DBusError(name: DBusError.Names.noServer, message: "Cannot connect to the bus at \(address).")
        }
        raw = opened
        dbus_connection_set_exit_on_disconnect(raw, 0)
        do {
            _ = try LibDBus.withCError { dbus_bus_register(opened, $0) }
        } catch {
            dbus_connection_close(opened)
            dbus_connection_unref(opened)
            throw error
        }
        uniqueName = dbus_bus_get_unique_name(raw).map { String(cString: $0) } ?? ""
        install()
    }

    /// Opens a connection to the session bus: the one `environment`'s
    /// `DBUS_SESSION_BUS_ADDRESS` names, else `$XDG_RUNTIME_DIR/bus` where
    /// that socket exists (as sd-bus and GLib clients do).
    public static func session(loop: EventLoop, environment: Environment) throws(DBusError) -> Connection {
        guard let address = sessionAddress(in: environment) else {
            throw DBusError(name: DBusError.Names.badAddress, message: "No session bus: DBUS_SESSION_BUS_ADDRESS "
                + "is not set, and there is no socket at $XDG_RUNTIME_DIR/bus.")
        }
        return try Connection(address: address, loop: loop)
    }

    /// The session bus's address in `environment`: `DBUS_SESSION_BUS_ADDRESS`,
    /// else `unix:path=$XDG_RUNTIME_DIR/bus` where that is a socket; nil
    /// when there is neither.
    public static func sessionAddress(in environment: Environment) -> String? {
        if let address = environment.nonEmpty("DBUS_SESSION_BUS_ADDRESS") { return address }
        guard let runtime = environment.nonEmpty("XDG_RUNTIME_DIR"), runtime.hasPrefix("/") else { return nil }
        let path = (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/bus"
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return nil }
        return "unix:path=" + escapedAddressValue(path)
    }

    /// `value` as a D-Bus address value, escaped by libdbus
    /// (`dbus_address_escape_value`: bytes outside `[-0-9A-Za-z_/.\\*]` as `%XX`).
    static func escapedAddressValue(_ value: String) -> String {
        guard let escaped = dbus_address_escape_value(value) else { return value }
        defer { dbus_free(escaped) }
        return String(cString: escaped)
    }

    deinit {
        teardown()
    }

    /// Writes out every message still queued, waiting for the socket (for
    /// a client about to close, so that what it sent last is not lost).
    public func flush() {
        loop.assertInLoop()
        guard isConnected else { return }
        dbus_connection_flush(raw)
    }

    /// Closes the connection. Pending calls fail with `Disconnected`.
    public func close() {
        loop.assertInLoop()
        teardown()
    }

    // MARK: Sending

    /// Sends `message` without waiting for anything.
    public func send(_ message: Message) {
        loop.assertInLoop()
        guard isConnected else { return }
        number(message)
        _ = dbus_connection_send(raw, message.raw, nil)
    }

    /// Sends a method call and calls `handler` on the loop with the reply, an
    /// error reply, or a local error (timeout: `NoReply`; lost bus:
    /// `Disconnected`). Never blocks. A timeout under 0 means libdbus's
    /// default, 25 s.
    public func call(_ message: Message, timeoutMilliseconds: Int,
                     reply handler: @escaping (Result<Message, DBusError>) -> Void) {
        loop.assertInLoop()
        guard isConnected else {
            loop.soon { handler(.failure(Self.closedError)) }
            return
        }
        let serial = number(message)
        guard dbus_connection_send(raw, message.raw, nil) != 0 else {
            loop.soon { handler(.failure(.failed("Out of memory while sending a D-Bus call."))) }
            return
        }
        let milliseconds = timeoutMilliseconds < 0 ? 25_000 : timeoutMilliseconds
        let timer = loop.schedule(afterMilliseconds: milliseconds) { [unowned self] in
            guard let awaited = self.awaiting.removeValue(forKey: serial) else { return }
            awaited.handler(.failure(DBusError(name: DBusError.Names.noReply,
                                               message: "No reply came within \(milliseconds) ms.")))
        }
        // A serial still awaited after 2³¹ messages more is not coming back.
        if let stale = awaiting.updateValue(Connection.AwaitedReply(handler: handler, timer: timer), forKey: serial) {
            loop.remove(stale.timer)
        }
    }

    /// Gives `message` the next serial unless it has one from this
    /// connection already; returns its serial.
    @discardableResult
    private func number(_ message: Message) -> UInt32 {
        if !message.isNumbered {
            message.isNumbered = true
            dbus_message_set_serial(message.raw, nextSerial)
            nextSerial = nextSerial == .max ? 1 << 31 : nextSerial + 1
        }
        return dbus_message_get_serial(message.raw)
    }

    /// What a call on a closed connection gets.
    private static let closedError = DBusError(name: DBusError.Names.disconnected,
                                               message: "The connection to the bus is closed.")

    /// Fails every call still awaiting a reply (the connection closed).
    private func failAwaiting() {
        let all = awaiting.values
        awaiting.removeAll()
        for awaited in all {
            loop.remove(awaited.timer)
            let handler = awaited.handler
            loop.soon { handler(.failure(Self.closedError)) }
        }
    }

    /// Sends a method call and runs the loop until its reply comes. For
    /// command-line tools and tests; never call it from a handler.
    public func callAndWait(_ message: Message, timeoutMilliseconds: Int = 25_000) throws(DBusError) -> Message {
        var result: Result<Message, DBusError>?
        call(message, timeoutMilliseconds: timeoutMilliseconds) { result = $0 }
        loop.run(until: { result != nil }, timeoutMilliseconds: timeoutMilliseconds + 5_000)
        switch result {
        case .success(let reply): return reply
        case .failure(let error): throw error
        case nil: throw DBusError(name: DBusError.Names.noReply, message: "No reply within \(timeoutMilliseconds) ms.")
        }
    }

    /// Calls a method and waits for its reply arguments (see `callAndWait`).
    public func callAndWait(
        destination: String, path: String, interface: String, member: String,
        arguments: [DBusValue] = [], timeoutMilliseconds: Int = 25_000
    ) throws(DBusError) -> [DBusValue] {
        let message = try Message.methodCall(destination: destination, path: path, interface: interface,
                                             member: member, arguments: arguments)
        return try callAndWait(message, timeoutMilliseconds: timeoutMilliseconds).arguments
    }

    // MARK: libdbus glue

    private func install() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_watch_functions(
            raw, ConnectionCallbacks.watchAdded, ConnectionCallbacks.watchRemoved, ConnectionCallbacks.watchToggled, me, nil)
        dbus_connection_set_timeout_functions(
            raw, ConnectionCallbacks.timeoutAdded, ConnectionCallbacks.timeoutRemoved, ConnectionCallbacks.timeoutToggled,
            me, nil)
        dbus_connection_add_filter(raw, ConnectionCallbacks.filterMessage, me, nil)
        workToken = loop.addWorkHook { [unowned self] in self.dispatchSome() }
        afterTurnToken = loop.addAfterTurnHook { [unowned self] in self.releaseHeld() }
    }

    private func teardown() {
        guard !closed else { return }
        closed = true
        isConnected = false
        if let workToken { loop.remove(workToken) }
        if let afterTurnToken { loop.remove(afterTurnToken) }
        if let quietTimer { loop.remove(quietTimer) }
        lanes.removeAll()
        let me = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_remove_filter(raw, ConnectionCallbacks.filterMessage, me)
        // Clear the functions first, so nothing queued touches a freed connection.
        dbus_connection_set_watch_functions(raw, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(raw, nil, nil, nil, nil, nil)
        for token in watchTokens.values { loop.remove(token) }
        for token in timeoutTokens.values { loop.remove(token) }
        watchTokens.removeAll()
        timeoutTokens.removeAll()
        knownTimeouts.removeAll()
        dbus_connection_close(raw)
        dbus_connection_unref(raw)
        failAwaiting()
    }

    /// Dispatches up to a batch of queued messages (none while the lane is
    /// full); returns whether more wait.
    private func dispatchSome() -> Bool {
        guard !closed else { return false }
        for _ in 0..<256 {
            guard !lanes.isFull, dbus_connection_get_dispatch_status(raw) == DBUS_DISPATCH_DATA_REMAINS else { break }
            _ = dbus_connection_dispatch(raw)
        }
        return heldMayGo || dbus_connection_get_dispatch_status(raw) == DBUS_DISPATCH_DATA_REMAINS
    }

    /// Whether a held message may be handled now, as far as
    /// `mayHandleLargeCall` and the socket's quiet are concerned (a full
    /// lane always may).
    private var heldMayGo: Bool {
        !lanes.isEmpty && (lanes.isFull || !lanes.nextIsLarge || (mayHandleLargeCall() && socketWasQuietLongEnough()))
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
    /// message (a large call only if `mayHandleLargeCall` and once the
    /// socket has been quiet a millisecond), if the socket ran dry (the
    /// turn read nothing) or the lane is full: while the bus
    /// still sends, reading on is how a small call behind large ones is
    /// found, and it then goes first. The loop commits and answers what the
    /// held message did in a step of its own, so no small call waits for a
    /// large one's commit. Returns whether it handled one.
    private func releaseHeld() -> Bool {
        defer { readThisTurn = false }
        guard !closed, !readThisTurn || lanes.isFull, heldMayGo, let next = lanes.next() else { return false }
        next()
        return true
    }

    /// Decides what an incoming message is for. Runs inside
    /// `dbus_connection_dispatch`: it only queues work for the loop, at once
    /// or, behind a large call, in the lane (`IncomingLanes`).
    func filter(_ raw: OpaquePointer) -> Bool {
        let message = Message(retaining: raw)
        let sender = message.sender ?? ""
        let bytes = message.kind == .methodCall ? message.weighedSize : 0
        let held = lanes.mustHold(message.kind, sender: sender, bytes: bytes)
        let work: () -> Void
        let handled: Bool
        switch message.kind {
        case .signal:
            if message.interface == "org.freedesktop.DBus.Local", message.member == "Disconnected" {
                isConnected = false
                failAwaiting()
                loop.soon { [weak self] in self?.onDisconnect?() }
                return true
            }
            let handlers = subscriptions.sorted(by: { $0.key < $1.key })
                .filter { $0.value.match.matches(message) }.map(\.value.handler)
            guard !handlers.isEmpty else { return false }
            work = { for handler in handlers { handler(message) } }
            handled = false
        case .methodCall:
            guard let handler = methodCallHandler else { return false }
            work = { handler(message) }
            handled = true
        case .methodReturn, .error:
            let serial = dbus_message_get_reply_serial(raw)
            guard awaiting[serial] != nil else { return false }
            let result: Result<Message, DBusError> = message.error.map { .failure($0) } ?? .success(message)
            if held {
                // Still awaited while it waits in the lane, so that closing
                // the connection meanwhile fails the call (exactly once).
                work = { [weak self] in self?.takeAwaited(serial)?(result) }
            } else {
                let handler = takeAwaited(serial)
                work = { handler?(result) }
            }
            handled = true
        default:
            return false
        }
        if held { lanes.hold(work, sender: sender, bytes: bytes, since: SystemTime.monotonicNanoseconds) } else { loop.soon(work) }
        return handled
    }

    /// The handler of the call awaiting reply `serial`, no longer awaited
    /// (its timer removed); nil when it is not awaited any more.
    private func takeAwaited(_ serial: UInt32) -> ((Result<Message, DBusError>) -> Void)? {
        guard let awaited = awaiting.removeValue(forKey: serial) else { return nil }
        loop.remove(awaited.timer)
        return awaited.handler
    }
}

extension Connection {
    /// A call waiting for its reply: who gets it, and the timer that gives up.
    struct AwaitedReply {
        let handler: (Result<Message, DBusError>) -> Void
        let timer: EventLoop.Token
    }
}
