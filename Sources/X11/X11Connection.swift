#if canImport(Glibc)
import Glibc
#endif
public import DBus
internal import CXCB

/// A connection to an X server, driven by an `EventLoop` and never blocking
/// it: every request that has a reply is sent at once, and its reply handler
/// runs on the loop when the reply has been read, in the order the requests
/// were made.
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

    private let raw: OpaquePointer
    private var watch: EventLoop.Token?
    /// Requests whose replies are awaited, oldest first.
    private var pending: [(sequence: UInt32, handler: (Reply) -> Void)] = []
    private var drainQueued = false
    private var closed = false

    /// A reply as libxcb hands it over: the reply or the error, owned here
    /// and freed after the handler ran.
    struct Reply {
        let body: UnsafeMutableRawPointer?
        let error: X11RequestError?
    }

    /// Connects to `display` (nil: `$DISPLAY`) and reads the server's setup.
    /// Connecting waits for the server's greeting; after that nothing waits.
    public init(display: String?, loop: EventLoop) throws(X11Error) {
        self.loop = loop
        let name = display ?? Environment.value("DISPLAY") ?? ""
        displayName = name
        guard !name.isEmpty else { throw X11Error.noDisplay }
        var screenNumber: Int32 = 0
        guard let connection = xcb_connect(name, &screenNumber) else { throw X11Error.cannotConnect(name, reason: "out of memory") }
        let status = xcb_connection_has_error(connection)
        guard status == 0 else {
            xcb_disconnect(connection)
            throw X11Error.cannotConnect(name, reason: Self.reason(forStatus: status))
        }
        raw = connection
        guard let setup = xcb_get_setup(connection) else {
            xcb_disconnect(connection)
            throw X11Error.cannotConnect(name, reason: "the server sent no setup")
        }
        var screens = xcb_setup_roots_iterator(setup)
        var index: Int32 = 0
        while index < screenNumber, screens.rem > 0 {
            xcb_screen_next(&screens)
            index += 1
        }
        guard screens.rem > 0, let screen = screens.data else {
            xcb_disconnect(connection)
            throw X11Error.cannotConnect(name, reason: "it has no screen \(screenNumber)")
        }
        root = XWindow(screen.pointee.root)
        keycodes = setup.pointee.min_keycode...max(setup.pointee.min_keycode, setup.pointee.max_keycode)
        let fd = xcb_get_file_descriptor(connection)
        watch = loop.watch(fd: fd, events: .readable) { [unowned self] _ in self.readAndDispatch() }
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
        xcb_disconnect(raw)
    }

    // MARK: Requests

    /// Interns `names` (creating atoms the server lacks); the handler gets
    /// every name's atom, or nil when the server refused.
    public func internAtoms(_ names: [String], then handler: @escaping ([String: XAtom]?) -> Void) {
        var atoms: [String: XAtom] = [:]
        var failed = false
        var left = names.count
        guard left > 0 else { return handler([:]) }
        for name in names {
            let cookie = name.withCString { xcb_intern_atom(raw, 0, UInt16(strlen($0)), $0) }
            expect(cookie.sequence) { reply in
                if let body = reply.body {
                    atoms[name] = XAtom(body.assumingMemoryBound(to: xcb_intern_atom_reply_t.self).pointee.atom)
                } else {
                    failed = true
                }
                left -= 1
                if left == 0 { handler(failed ? nil : atoms) }
            }
        }
        flush()
    }

    /// Reads `property` of `window` (up to `maximumBytes`); the handler gets
    /// nil when the window does not exist or the property is not set.
    public func property(_ property: XAtom, of window: XWindow, maximumBytes: Int = 4_096,
                         then handler: @escaping (X11Property?) -> Void) {
        let words = UInt32(max(1, (maximumBytes + 3) / 4))
        let cookie = xcb_get_property(raw, 0, window.id, property.id, 0 /* AnyPropertyType */, 0, words)
        expect(cookie.sequence) { reply in
            guard let body = reply.body else { return handler(nil) }
            let typed = body.assumingMemoryBound(to: xcb_get_property_reply_t.self)
            guard typed.pointee.type != 0 else { return handler(nil) }
            let length = Int(xcb_get_property_value_length(typed))
            var bytes: [UInt8] = []
            if length > 0, let value = xcb_get_property_value(typed) {
                bytes = Array(UnsafeRawBufferPointer(start: value, count: length))
            }
            handler(X11Property(type: XAtom(typed.pointee.type), format: typed.pointee.format, bytes: bytes))
        }
        flush()
    }

    /// Asks for `events` on `window` (replacing what this client asked before).
    public func selectEvents(_ events: X11EventMask, on window: XWindow) {
        var values: [UInt32] = [events.rawValue]
        _ = xcb_change_window_attributes(raw, window.id, UInt32(XCB_CW_EVENT_MASK.rawValue), &values)
        flush()
    }

    /// Grabs `keycode` with exactly `modifiers` on `window`, both devices
    /// left running (asynchronous mode). Returns the request's sequence
    /// number: a refusal comes back as an `.error` event carrying it.
    @discardableResult
    public func grabKey(_ keycode: UInt8, modifiers: UInt16, on window: XWindow) -> UInt32 {
        let mode = UInt8(XCB_GRAB_MODE_ASYNC.rawValue)
        let cookie = xcb_grab_key(raw, 1, window.id, modifiers, keycode, mode, mode)
        flush()
        return cookie.sequence
    }

    /// Releases a grab made by `grabKey`.
    public func ungrabKey(_ keycode: UInt8, modifiers: UInt16, on window: XWindow) {
        _ = xcb_ungrab_key(raw, keycode, window.id, modifiers)
        flush()
    }

    /// Reads the keyboard mapping: which key symbols each key code carries.
    public func keyboardMapping(then handler: @escaping (KeyboardMapping?) -> Void) {
        let first = keycodes.lowerBound
        let count = UInt8(clamping: Int(keycodes.upperBound) - Int(first) + 1)
        let cookie = xcb_get_keyboard_mapping(raw, first, count)
        expect(cookie.sequence) { reply in
            guard let body = reply.body else { return handler(nil) }
            let typed = body.assumingMemoryBound(to: xcb_get_keyboard_mapping_reply_t.self)
            let length = Int(xcb_get_keyboard_mapping_keysyms_length(typed))
            var symbols: [UInt32] = []
            if length > 0, let start = xcb_get_keyboard_mapping_keysyms(typed) {
                symbols = Array(UnsafeBufferPointer(start: start, count: length))
            }
            handler(KeyboardMapping(firstKeycode: first, symbolsPerKeycode: Int(typed.pointee.keysyms_per_keycode),
                                    symbols: symbols))
        }
        flush()
    }

    /// Reads the modifier mapping: the key codes of each of the eight
    /// modifiers (Shift, Lock, Control, Mod1 … Mod5).
    public func modifierMapping(then handler: @escaping ([[UInt8]]?) -> Void) {
        let cookie = xcb_get_modifier_mapping(raw)
        expect(cookie.sequence) { reply in
            guard let body = reply.body else { return handler(nil) }
            let typed = body.assumingMemoryBound(to: xcb_get_modifier_mapping_reply_t.self)
            let perModifier = Int(typed.pointee.keycodes_per_modifier)
            let length = Int(xcb_get_modifier_mapping_keycodes_length(typed))
            guard perModifier > 0, length >= perModifier * 8, let start = xcb_get_modifier_mapping_keycodes(typed) else {
                return handler(Array(repeating: [], count: 8))
            }
            let all = Array(UnsafeBufferPointer(start: start, count: length))
            handler((0..<8).map { modifier in
                all[(modifier * perModifier)..<((modifier + 1) * perModifier)].filter { $0 != 0 }
            })
        }
        flush()
    }

    /// Calls `handler` once the server has handled every request made so
    /// far (one round trip): by then the errors of earlier requests, if any,
    /// have been delivered as events.
    public func sync(then handler: @escaping () -> Void) {
        let cookie = xcb_get_input_focus(raw)
        expect(cookie.sequence) { _ in handler() }
        flush()
    }

    // MARK: Reading

    private func expect(_ sequence: UInt32, _ handler: @escaping (Reply) -> Void) {
        guard !closed else { return }
        pending.append((sequence, handler))
    }

    /// Sends what is buffered. libxcb may read from the socket while it
    /// writes, so whatever it read is dispatched on the loop right after.
    private func flush() {
        guard !closed else { return }
        if xcb_flush(raw) <= 0 { return checkBroken() }
        guard !drainQueued else { return }
        drainQueued = true
        loop.soon { [weak self] in
            guard let self else { return }
            self.drainQueued = false
            self.dispatch(reading: false)
        }
    }

    private func readAndDispatch() {
        dispatch(reading: true)
    }

    /// Hands every event and every reply that has arrived to its handler,
    /// in the order the server sent them. With `reading`, reads from the
    /// socket first. `xcb_poll_for_reply` reads too, so the events that
    /// reading brings in are handed out before the reply it returns: an
    /// error of an earlier request is seen before the answer of a later one.
    private func dispatch(reading: Bool) {
        guard !closed else { return }
        dispatchEvents(reading: reading)
        while !closed, let first = pending.first {
            var body: UnsafeMutableRawPointer?
            var error: UnsafeMutablePointer<xcb_generic_error_t>?
            guard xcb_poll_for_reply(raw, first.sequence, &body, &error) != 0 else { break }
            pending.removeFirst()
            dispatchEvents(reading: false)
            let requestError = error.map { X11RequestError(raw: UnsafeRawPointer($0)) }
            first.handler(Reply(body: body, error: requestError))
            free(body)
            free(error)
        }
        dispatchEvents(reading: false)
        checkBroken()
    }

    private func dispatchEvents(reading: Bool) {
        while !closed {
            let next = reading ? xcb_poll_for_event(raw) : xcb_poll_for_queued_event(raw)
            guard let event = next else { return }
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
