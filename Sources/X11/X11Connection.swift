#if canImport(Glibc)
import Glibc
#endif
internal import CXCB
internal import CXCBShim
public import Loop
public import SystemClock
import Synchronization

/// A connection to an X server, driven by an `EventLoop` and never blocking
/// it: connecting happens on another thread, with a deadline; every request
/// that has a reply is sent at once, and its handler runs on the loop when
/// the reply has been read, in the order the requests were made. A server
/// that stops answering is noticed (`isStalled`), and no more is sent to it
/// until it answers again, so a hung server can neither block the loop on a
/// full socket nor make the queue of awaited replies grow without bound.
///
/// Confined to the loop's thread, like `Connection`. Nothing above this
/// module sees a libxcb type.
public final class X11Connection {
    /// The loop that drives this connection.
    public let loop: EventLoop
    /// The display it was opened on, as a person would name it (`:0`).
    public let displayName: String
    /// The root window of the default screen.
    public let root: XWindow
    /// The lowest and highest key codes the server uses.
    public let keycodes: ClosedRange<UInt8>
    /// Whether the connection is still open.
    public private(set) var isConnected = true
    /// Called for every event the server sends (errors of requests without
    /// a reply handler included).
    public var onEvent: ((X11Event) -> Void)?
    /// Called once when the connection breaks (the server went away), with
    /// a sentence saying why; not called by `close`.
    public var onClose: ((String) -> Void)?

    /// Awaited replies beyond which the server counts as stalled.
    static let stallCount = 512
    /// How long the oldest awaited reply may take before the server counts
    /// as stalled, in nanoseconds.
    static let stallNanoseconds: Int64 = 5_000_000_000
    /// Events handed out per turn of the loop; the rest wait for the next.
    static let eventsPerTurn = 512

    let raw: OpaquePointer
    private var watch: EventLoop.Token?
    /// Requests whose replies are awaited, oldest first, with when they were sent.
    private var pending: [(sequence: UInt32, sent: Int64, handler: (Reply) -> Void)] = []
    private var pendingStart = 0
    private var drainQueued = false
    private(set) var closed = false

    /// A reply as libxcb hands it over: the reply or the error (both nil
    /// when the request was never sent), freed after the handler ran.
    struct Reply {
        /// The reply's bytes, as libxcb allocated them.
        let body: UnsafeMutableRawPointer?
        /// The error the server answered instead.
        let error: X11RequestError?
    }

    /// Connects to `display` on another thread and calls `done` on the loop
    /// with the connection, or the error (after `timeoutMilliseconds` at
    /// most); the loop goes on serving meanwhile.
    public static func connect(display name: String, loop: EventLoop, timeoutMilliseconds: Int,
                               then done: @escaping (Result<X11Connection, X11Error>) -> Void) {
        ConnectAttempt.run(display: name, loop: loop, timeoutMilliseconds: timeoutMilliseconds, make: {
            (raw: OpaquePointer, screen: Int32) throws(X11Error) in
            try X11Connection(raw: raw, screen: screen, displayName: name, loop: loop)
        }, then: done)
    }

    private init(raw connection: OpaquePointer, screen screenNumber: Int32, displayName: String,
                 loop: EventLoop) throws(X11Error) {
        self.loop = loop
        self.displayName = displayName
        let status = xcb_connection_has_error(connection)
        guard status == 0 else {
            xcb_disconnect(connection)
            throw X11Error.cannotConnect(displayName, reason: Self.reason(forStatus: status))
        }
        raw = connection
        guard let setup = xcb_get_setup(connection) else {
            xcb_disconnect(connection)
            throw X11Error.cannotConnect(displayName, reason: "the server sent no setup")
        }
        var screens = xcb_setup_roots_iterator(setup)
        var index: Int32 = 0
        while index < screenNumber, screens.rem > 0 {
            xcb_screen_next(&screens)
            index += 1
        }
        guard screens.rem > 0, let screen = screens.data else {
            xcb_disconnect(connection)
            throw X11Error.cannotConnect(displayName, reason: "it has no screen \(screenNumber)")
        }
        root = XWindow(screen.pointee.root)
        keycodes = setup.pointee.min_keycode...max(setup.pointee.min_keycode, setup.pointee.max_keycode)
        let fd = xcb_get_file_descriptor(connection)
        watch = loop.watch(fd: fd, events: .readable) { [weak self] in self?.dispatch(reading: true) }
    }

    deinit { teardown() }

    /// Closes the connection; replies still awaited are never delivered.
    public func close() { teardown() }

    private func teardown() {
        guard !closed else { return }
        closed = true
        isConnected = false
        if let watch { loop.remove(watch) }
        watch = nil
        pending.removeAll()
        pendingStart = 0
        xcb_disconnect(raw)
    }

    /// Whether the server has stopped answering: too many replies awaited,
    /// or the oldest awaited too long. Nothing is sent while it is.
    public var isStalled: Bool {
        let waiting = pending.count - pendingStart
        guard waiting > 0 else { return false }
        return waiting >= Self.stallCount || SystemTime.monotonicNanoseconds - pending[pendingStart].sent > Self.stallNanoseconds
    }

    // MARK: Reading

    /// Sends a request with a reply (`issue` returns its sequence number)
    /// and awaits it; while the server is stalled or the connection closed,
    /// nothing is sent and the handler gets an empty reply on the loop.
    func request(_ issue: () -> UInt32, _ handler: @escaping (Reply) -> Void) {
        guard !closed, !isStalled else {
            loop.soon { handler(Reply(body: nil, error: nil)) }
            return
        }
        pending.append((issue(), SystemTime.monotonicNanoseconds, handler))
        flush()
    }

    /// Sends what is buffered. libxcb may read from the socket while it
    /// writes, so whatever it read is dispatched on the loop right after.
    func flush() {
        guard !closed else { return }
        if xcb_flush(raw) <= 0 { return checkBroken() }
        scheduleDrain()
    }

    private func scheduleDrain() {
        guard !drainQueued else { return }
        drainQueued = true
        loop.soon { [weak self] in
            guard let self else { return }
            self.drainQueued = false
            self.dispatch(reading: false)
        }
    }

    /// Hands the events and replies that have arrived to their handlers.
    /// With `reading`, reads from the socket first. `xcb_poll_for_reply`
    /// reads too, so the events that reading brings in are handed out
    /// before the reply it returns: an error of an earlier request is seen
    /// before the answer to a later one (events that came after that reply
    /// are then seen early too, which no handler minds).
    private func dispatch(reading: Bool) {
        guard !closed else { return }
        var budget = Self.eventsPerTurn
        dispatchEvents(reading: reading, budget: &budget)
        while !closed, pendingStart < pending.count {
            let first = pending[pendingStart]
            var body: UnsafeMutableRawPointer?
            var error: UnsafeMutablePointer<xcb_generic_error_t>?
            guard xcb_poll_for_reply(raw, first.sequence, &body, &error) != 0 else { break }
            pendingStart += 1
            if pendingStart > 64, pendingStart * 2 > pending.count {
                pending.removeFirst(pendingStart)
                pendingStart = 0
            }
            dispatchEvents(reading: false, budget: &budget)
            let requestError = error.map { X11RequestError(raw: UnsafeRawPointer($0)) }
            first.handler(Reply(body: body, error: requestError))
            free(body)
            free(error)
        }
        dispatchEvents(reading: false, budget: &budget)
        checkBroken()
    }

    /// Hands out queued events (reading the socket first with `reading`),
    /// at most `budget` of them; a flood waits for the next turn.
    private func dispatchEvents(reading: Bool, budget: inout Int) {
        while !closed {
            guard budget > 0 else { return scheduleDrain() }
            let next = reading ? xcb_poll_for_event(raw) : xcb_poll_for_queued_event(raw)
            guard let event = next else { return }
            budget -= 1
            let decoded = X11Event(raw: UnsafeRawPointer(event))
            free(event)
            if let decoded { onEvent?(decoded) }
        }
    }

    private func checkBroken() {
        guard !closed else { return }
        let status = xcb_connection_has_error(raw)
        guard status != 0 else { return }
        let reason = Self.reason(forStatus: status)
        teardown()
        onClose?(reason)
    }

    private static func reason(forStatus status: Int32) -> String {
        switch status {
        case 1: "the connection failed or was closed (no X server there, or it went away)"
        case 2: "an extension is missing"
        case 3: "out of memory"
        case 4: "a request was too long"
        case 5: "the display name could not be parsed"
        case 6: "the display has no such screen"
        default: "error \(status)"
        }
    }
}
