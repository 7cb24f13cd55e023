import DBus
import Loop
import X11

/// The X11 desktop undod runs on: one connection to the X server, watched by
/// undod's loop, the atoms undod needs, whether the server can say which
/// process owns a window (X-Resource), and whether an EWMH window manager
/// answers (`_NET_SUPPORTING_WM_CHECK`, followed as it changes, never
/// polled). The active-window tracker, the x11 focus and the hotkey listen
/// to its events. Confined to the loop.
final class X11Session {
    /// The atoms undod asks the server about.
    struct Atoms {
        /// `_NET_ACTIVE_WINDOW` (on the root): the window with the user's focus.
        let activeWindow: XAtom
        /// `_NET_SUPPORTING_WM_CHECK`: the window manager's check window.
        let supportingWMCheck: XAtom
        /// `_NET_SUPPORTED`: the EWMH hints the window manager honours.
        let supported: XAtom
        /// `_NET_WM_PID`: the process that says it owns a window.
        let wmPID: XAtom
        /// `_NET_WM_NAME`: a window's (here: the window manager's) name.
        let wmName: XAtom
    }

    /// The connection.
    let connection: X11Connection
    /// The atoms.
    let atoms: Atoms
    /// Whether the server has X-Resource, which names the local process
    /// behind a window from the socket (no client can lie about it).
    let hasResourceExtension: Bool
    /// The name of the EWMH window manager that answers, or nil for none.
    private(set) var windowManager: String?
    /// Whether the connection still stands.
    var isLive: Bool { connection.isConnected }
    /// Called when a window manager starts or stops answering.
    var onWindowManagerChange: (() -> Void)?
    /// Called once when the X server goes away, with the reason.
    var onLost: ((String) -> Void)?

    private var listeners: [(X11Event) -> Void] = []
    private var checkWindow: XWindow?
    private var checking = false
    private var checkAgain = false

    private init(connection: X11Connection, atoms: Atoms, hasResourceExtension: Bool) {
        self.connection = connection
        self.atoms = atoms
        self.hasResourceExtension = hasResourceExtension
    }

    /// Opens `display` (as `DISPLAY` names it), learns its atoms, its
    /// extensions and its window manager, running `loop` meanwhile for at
    /// most `timeoutMilliseconds` in all. For start-up only, before undod
    /// takes its bus name; later, `open(display:loop:timeoutMilliseconds:then:)`.
    static func open(display: String, loop: EventLoop, timeoutMilliseconds: Int = 3_000) throws(X11Error) -> X11Session {
        var outcome: Result<X11Session, X11Error>?
        open(display: display, loop: loop, timeoutMilliseconds: timeoutMilliseconds) { outcome = $0 }
        loop.run(until: { outcome != nil }, timeoutMilliseconds: 3 * timeoutMilliseconds + 1_000)
        guard let outcome else { throw X11Error.noAnswer(display, milliseconds: timeoutMilliseconds) }
        return try outcome.get()
    }

    /// The same, calling `done` on the loop when the session is ready (or
    /// with the error); the loop goes on serving meanwhile. Each of the
    /// three steps — connecting, the atoms and extensions, the window
    /// manager — has `timeoutMilliseconds`.
    static func open(display: String, loop: EventLoop, timeoutMilliseconds: Int = 3_000,
                     then done: @escaping (Result<X11Session, X11Error>) -> Void) {
        X11Connection.connect(display: display, loop: loop, timeoutMilliseconds: timeoutMilliseconds) { made in
            switch made {
            case .failure(let error): done(.failure(error))
            case .success(let connection): learn(connection, loop: loop, timeoutMilliseconds: timeoutMilliseconds, then: done)
            }
        }
    }

    /// Learns the atoms and extensions of a new connection, then its window manager.
    private static func learn(_ connection: X11Connection, loop: EventLoop, timeoutMilliseconds: Int,
                              then done: @escaping (Result<X11Session, X11Error>) -> Void) {
        var interned: [String: XAtom]?? = .none
        var resources: Bool?
        var finished = false
        var timeout: EventLoop.Token?
        let proceed = { () -> Void in
            guard !finished, (interned != nil && resources != nil) || !connection.isConnected else { return }
            finished = true
            timeout.map(loop.remove)
            guard connection.isConnected, case .some(.some(let names)) = interned,
                  let active = names["_NET_ACTIVE_WINDOW"], let check = names["_NET_SUPPORTING_WM_CHECK"],
                  let supported = names["_NET_SUPPORTED"], let pid = names["_NET_WM_PID"],
                  let wmName = names["_NET_WM_NAME"] else {
                connection.close()
                return done(.failure(.noAnswer(connection.displayName, milliseconds: timeoutMilliseconds)))
            }
            if resources == true { connection.prefetchResourceExtension() }
            let session = X11Session(connection: connection, atoms: Atoms(
                activeWindow: active, supportingWMCheck: check, supported: supported, wmPID: pid, wmName: wmName),
                hasResourceExtension: resources == true)
            connection.onEvent = { [weak session] event in session?.handle(event) }
            connection.onClose = { [weak session] reason in session?.onLost?(reason) }
            connection.selectEvents(.propertyChange, on: connection.root)
            var checked = false
            let giveUp = loop.schedule(afterMilliseconds: timeoutMilliseconds) {
                guard !checked else { return }
                checked = true
                done(.success(session))
            }
            session.checkWindowManager {
                guard !checked else { return }
                checked = true
                loop.remove(giveUp)
                done(.success(session))
            }
        }
        timeout = loop.schedule(afterMilliseconds: timeoutMilliseconds) {
            guard !finished else { return }
            finished = true
            connection.close()
            done(.failure(.noAnswer(connection.displayName, milliseconds: timeoutMilliseconds)))
        }
        connection.internAtoms(["_NET_ACTIVE_WINDOW", "_NET_SUPPORTING_WM_CHECK", "_NET_SUPPORTED", "_NET_WM_PID",
                                "_NET_WM_NAME"]) { interned = .some($0); proceed() }
        connection.hasExtension("X-Resource") { resources = $0; proceed() }
    }

    /// The display's name, as `DISPLAY` gave it.
    var displayName: String { connection.displayName }

    /// Calls `listener` with every event from the server, after the session's own handling.
    func addListener(_ listener: @escaping (X11Event) -> Void) {
        listeners.append(listener)
    }

    private func handle(_ event: X11Event) {
        switch event {
        case .propertyChanged(let window, let atom, _)
            where window == connection.root && (atom == atoms.supportingWMCheck || atom == atoms.supported):
            checkWindowManager()
        case .destroyed(let window) where window == checkWindow:
            checkWindowManager()
        default:
            break
        }
        for listener in listeners { listener(event) }
    }

    /// Finds out whether an EWMH window manager answers: the root names a
    /// check window, the check window names itself, and `_NET_SUPPORTED`
    /// lists `_NET_ACTIVE_WINDOW`. The check window's destruction is asked
    /// for before it is read, so a window manager that dies in between is
    /// noticed either way.
    private func checkWindowManager(then done: (() -> Void)? = nil) {
        guard !checking else {
            checkAgain = true
            done?()
            return
        }
        checking = true
        let root = connection.root
        connection.property(atoms.supportingWMCheck, of: root) { [weak self] rootCheck in
            guard let self else { return }
            guard let candidate = rootCheck?.window, candidate != .none else { return self.conclude(nil, nil, done) }
            if candidate != self.checkWindow { self.connection.selectEvents(.structureNotify, on: candidate) }
            self.connection.property(self.atoms.supportingWMCheck, of: candidate) { ownCheck in
                guard ownCheck?.window == candidate else { return self.conclude(nil, nil, done) }
                self.connection.property(self.atoms.supported, of: root, maximumBytes: 65_536) { supported in
                    guard supported?.words.contains(self.atoms.activeWindow.id) == true else {
                        return self.conclude(nil, nil, done)
                    }
                    self.connection.property(self.atoms.wmName, of: candidate) { name in
                        let text = name?.text.flatMap { $0.isEmpty ? nil : $0 } ?? "an EWMH window manager"
                        self.conclude(candidate, text, done)
                    }
                }
            }
        }
    }

    /// Ends a window-manager check with what it found.
    private func conclude(_ window: XWindow?, _ name: String?, _ done: (() -> Void)?) {
        checking = false
        checkWindow = window
        let changed = name != windowManager
        windowManager = name
        done?()
        if changed { onWindowManagerChange?() }
        if checkAgain {
            checkAgain = false
            checkWindowManager()
        }
    }
}
