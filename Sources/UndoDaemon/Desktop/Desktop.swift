import Caretaker
import DBus
import Loop
import Logging
import ProcessEnvironment
import UndoCore
import X11

/// The desktop undod runs on, as far as the global trigger cares: an X11
/// display (or none), whether Wayland is in charge, the focus strategy the
/// config asks for and the desktop allows, and the global keys (an X11 grab,
/// or the Wayland portal). Each way the desktop can fall short — no display,
/// no window manager, an X server that goes away, no portal — is said in one
/// log line, and undod goes on. Confined to the loop.
final class Desktop {
    /// The focus strategy in effect (replaced when a desktop comes later).
    var focus: any FocusStrategy { focusSwitch }
    /// What the compositors report through `ReportFocus`.
    let reports: CompositorReports

    private let log: Log
    private let loop: EventLoop
    private let connection: Connection
    private let registry: StackRegistry
    private let processes: PeerProcesses
    private let focusSwitch: FocusSwitch
    private var session: X11Session?
    /// Whether an X display that came later is being opened.
    private var openingDisplay = false
    private var wayland: Bool
    /// The desktop's variables as last taken up.
    private var environment: Environment
    private let strategy: DaemonConfig.FocusStrategyName
    /// Where the global keys fire, once started.
    private var fire: ((Direction, String) -> Void)?
    private let config: DaemonConfig
    /// The X11 grab, while there is one.
    private var hotkey: HotkeyTrigger?
    /// sway, where `SWAYSOCK` names it (focus and keys).
    private var sway: SwaySession?
    /// undod's script in KWin, under KDE (focus reports and keys).
    private var kwinScript: KWinScript?
    /// The Wayland portal's shortcuts, when asked for.
    private var portal: PortalShortcutTrigger?
    /// Whether undod's GNOME Shell extension is active, under GNOME on Wayland.
    private var gnomeExtension: GnomeExtensionWatch?
    /// Where the causes of a dead key are said, once the keys are started.
    private var keyProblems: KeyProblemReporter?
    /// What start-up found, said by `reportStartup` once undod runs for sure.
    private var startupNotes: [(level: Log.Level, key: LogKey, text: String)] = []

    /// How long the X server has at start to answer, in all.
    static let startMilliseconds = 3_000

    /// Looks at the desktop: opens the X display when focus or the keys
    /// need it (running `loop` for at most `startMilliseconds` while the X
    /// server answers), and chooses the focus strategy over `registry`.
    init(config: DaemonConfig, environment: Environment, loop: EventLoop, connection: Connection, registry: StackRegistry, log: Log) {
        self.log = log
        self.loop = loop
        self.connection = connection
        self.config = config
        strategy = config.focusStrategy
        wayland = environment.nonEmpty("WAYLAND_DISPLAY") != nil
        let hasKeys = config.hotkeyUndo != nil || config.hotkeyRedo != nil
        let wantsX11 = strategy == .x11 || (!wayland && (strategy == .auto || hasKeys))
        var session: X11Session?
        if wantsX11 {
            do {
                session = try X11Session.open(display: environment.value("DISPLAY") ?? "", loop: loop,
                                               timeoutMilliseconds: Self.startMilliseconds)
            } catch {
                startupNotes.append((.warning, .x11Unavailable, "\(error): " + Self.consequences(
                    strategy: strategy, keys: hasKeys && !wayland, keysWere: "are not grabbed") + "."))
            }
        }
        self.session = session
        let processes = PeerProcesses(connection: connection)
        self.processes = processes
        self.registry = registry
        self.environment = environment
        reports = CompositorReports(connection: connection)
        reports.waylandSocket = Self.waylandSocket(in: environment)
        let swaySocket = environment.nonEmpty("SWAYSOCK")
        if strategy == .sway || (strategy == .auto && swaySocket != nil) {
            if let swaySocket {
                sway = SwaySession(socketPath: swaySocket, loop: loop, log: log)
            } else {
                startupNotes.append((.warning, .swayUnnamed, "focus.strategy = sway, but SWAYSOCK is not set: no stack is focused "
                    + "unless one is pinned with SetFocus."))
            }
        }
        if Self.wantsKWinScript(strategy, environment) {
            kwinScript = KWinScript(environment: environment, connection: connection, loop: loop, log: log)
        }
        focusSwitch = FocusSwitch(RecentFocus())
        let (chosen, notes) = makeStrategy()
        startupNotes += notes
        focusSwitch.replace(with: chosen)
        guard let session else { return }
        if strategy == .x11 || (strategy == .auto && !wayland), session.windowManager == nil {
            startupNotes.append((.notice, .noWindowManager, "no EWMH window manager answers on \(session.displayName): "
                + Self.withoutWindowManager(strategy)))
        }
        session.onWindowManagerChange = { [weak self] in self?.windowManagerChanged() }
        session.onLost = { [weak self] reason in self?.lost(reason) }
    }

    /// The strategy the config asks for on the desktop as it is now, and
    /// what to say of it.
    private func makeStrategy() -> (any FocusStrategy, [(level: Log.Level, key: LogKey, text: String)]) {
        let window = { [processes, registry] (source: any FrontWindowSource) in
            WindowFocus(source: source, processes: processes, registry: registry)
        }
        switch strategy {
        case .recent:
            return (RecentFocus(), [])
        case .sway:
            return (window(sway ?? AbsentSource(name: "sway", why: "SWAYSOCK is not set, so undod cannot ask sway")), [])
        case .kwin:
            return (window(reports.source(.kwin)), [])
        case .gnome:
            return (window(reports.source(.gnome)), [])
        case .x11:
            return (X11Focus(session: session, processes: processes, registry: registry, loop: loop), [])
        case .auto:
            let desktop = environment.value("XDG_CURRENT_DESKTOP")
            // An X11 session takes no reports (a GNOME Flashback's X display, say).
            let compositors = wayland ? Compositor.allCases.filter { $0.isNamed(in: desktop) } : []
            let windows = (sway.map { [window($0)] } ?? []) + compositors.map { window(reports.source($0)) }
            let x11 = wayland ? nil : session
            guard !windows.isEmpty || x11 != nil else {
                let note = "focus is recent, a guess: this Wayland session (XDG_CURRENT_DESKTOP=\(desktop ?? "")) "
                    + "is not sway and its compositor does not report to undod."
                return (RecentFocus(), wayland ? [(.notice, .focusGuess, note)] : [])
            }
            let notes = compositors.map { compositor in
                (Log.Level.notice, LogKey.awaitingReports, "focus follows \(compositor.busName)'s reports once it sends them ("
                    + (compositor == .kwin ? "undod's KWin script" : "the undod GNOME Shell extension")
                    + "); until then \(x11 == nil ? "recent, a guess" : "x11").")
            }
            return (AutoFocus(windows: windows, session: x11, processes: processes, registry: registry, loop: loop),
                    notes)
        }
    }

    /// A desktop that came later (or went): the user manager's environment
    /// names another sway, X display, Wayland display or desktop. A sway is
    /// taken up at once, with its keys; an X display once its server has
    /// answered (the loop serves meanwhile), with its grab; the focus
    /// strategy is made again for the desktop as it is now.
    func takeUp(_ newer: Environment) {
        let older = environment
        environment = newer
        let changed = SessionEnvironment.desktopKeys.filter { newer.value($0) != older.value($0) }
        // An X display not (or no longer) in use is tried again, even
        // under the same name: its server may have started since.
        if session?.isLive != true, newer.nonEmpty("WAYLAND_DISPLAY") == nil, let display = newer.nonEmpty("DISPLAY"),
           !openingDisplay, strategy == .auto || strategy == .x11 {
            openDisplay(display)
        }
        guard !changed.isEmpty else { return }
        log.notice(.desktopChanged, "the session's desktop changed (\(changed.map { "\($0)=\(newer.value($0) ?? "")" }.joined(separator: ", "))).")
        wayland = newer.nonEmpty("WAYLAND_DISPLAY") != nil
        reports.waylandSocket = Self.waylandSocket(in: newer)
        if let socket = newer.nonEmpty("SWAYSOCK"), sway == nil, strategy == .auto || strategy == .sway {
            let found = SwaySession(socketPath: socket, loop: loop, log: log)
            sway = found
            if let fire { bindSwayKeys(found, fire: fire) }
        }
        if kwinScript == nil, Self.wantsKWinScript(strategy, newer) {
            let script = KWinScript(environment: newer, connection: connection, loop: loop, log: log)
            kwinScript = script
            watchKeyProblems()
            if fire != nil { script.start(following: reports) }
        }
        if fire != nil { watchKeyProblems() }
        let (chosen, notes) = makeStrategy()
        for note in notes { log.write(note.level, note.key, note.text) }
        focusSwitch.replace(with: chosen)
    }

    /// The Wayland display's socket as clients find it: `WAYLAND_DISPLAY`,
    /// under `XDG_RUNTIME_DIR` unless it is a path; nil without one.
    static func waylandSocket(in environment: Environment) -> String? {
        guard let display = environment.nonEmpty("WAYLAND_DISPLAY") else { return nil }
        if display.hasPrefix("/") { return display }
        guard let runtime = environment.nonEmpty("XDG_RUNTIME_DIR") else { return nil }
        return runtime + "/" + display
    }

    /// Whether the compositor binds the global keys itself: undod's KWin
    /// script (where installed) or the GNOME Shell extension. Then the
    /// portal is not asked as well, so one press is one undo.
    private var compositorBindsKeys: Bool {
        kwinScript?.scriptPath != nil || strategy == .gnome
            || (strategy == .auto && Compositor.gnome.isNamed(in: environment.value("XDG_CURRENT_DESKTOP")))
    }

    /// Opens an X display that came later, without holding the loop; once
    /// it answers, focus follows its active window and the keys are grabbed.
    private func openDisplay(_ display: String) {
        openingDisplay = true
        X11Session.open(display: display, loop: loop, timeoutMilliseconds: Self.startMilliseconds) { [weak self] opened in
            guard let self else { return }
            self.openingDisplay = false
            switch opened {
            case .failure(let error):
                self.log.warning(.x11LaterUnavailable,
                                 "\(error): the X display that came later is not used; send undod SIGHUP to try again.")
            case .success(let session):
                guard !self.wayland, self.session?.isLive != true else { return }
                self.session = session
                session.onWindowManagerChange = { [weak self] in self?.windowManagerChanged() }
                session.onLost = { [weak self] reason in self?.lost(reason) }
                self.log.notice(.x11TakenUp, "took up the X display \(session.displayName) that came later"
                    + (session.windowManager.map { ": \($0) answers there." } ?? ", where no EWMH window manager answers yet."))
                let (chosen, notes) = self.makeStrategy()
                for note in notes { self.log.write(note.level, note.key, note.text) }
                self.focusSwitch.replace(with: chosen)
                if let fire = self.fire, self.sway == nil, self.hotkey == nil,
                   self.config.hotkeyUndo != nil || self.config.hotkeyRedo != nil {
                    self.grabKeys(on: session, fire: fire)
                }
            }
        }
    }

    /// Whether undod keeps its script in KWin: `focus.strategy = kwin`, or
    /// `auto` on a desktop `XDG_CURRENT_DESKTOP` names KDE.
    private static func wantsKWinScript(_ strategy: DaemonConfig.FocusStrategyName, _ environment: Environment) -> Bool {
        strategy == .kwin || (strategy == .auto && Compositor.kwin.isNamed(in: environment.value("XDG_CURRENT_DESKTOP")))
    }

    /// Says what start-up found (once undod has its bus name: a second
    /// undod that refuses to run has nothing to say about the desktop).
    func reportStartup() {
        for note in startupNotes { log.write(note.level, note.key, note.text) }
        startupNotes.removeAll()
    }

    /// Starts the global keys: KWin's script (which reports focus too),
    /// sway's bindings, the X11 grab, or on Wayland the portal; what keeps
    /// them from working is told to `problems`.
    func startKeys(fire: @escaping (Direction, String) -> Void, problems: KeyProblemReporter) {
        self.fire = fire
        keyProblems = problems
        for compositor in Compositor.allCases {
            reports.followOwner(of: compositor) { owner in problems.compositor(compositor, isPresent: owner != nil) }
        }
        watchKeyProblems()
        kwinScript?.start(following: reports)
        guard config.hotkeyUndo != nil || config.hotkeyRedo != nil else { return }
        if let sway {
            bindSwayKeys(sway, fire: fire)
        } else if wayland, !compositorBindsKeys, portal == nil {
            let portal = PortalShortcutTrigger(connection: connection, undo: config.hotkeyUndo,
                                               redo: config.hotkeyRedo, log: log)
            portal.start(fire: fire)
            self.portal = portal
        } else if let session, session.isLive {
            grabKeys(on: session, fire: fire)
        }
    }

    /// Follows what keeps the key from working on the desktop as it is now:
    /// no display known; under GNOME on Wayland an extension the Shell says
    /// is not active; under KDE on Wayland a KWin script that did not load.
    private func watchKeyProblems() {
        guard let keyProblems else { return }
        let known = ["DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK"].contains { environment.nonEmpty($0) != nil }
        keyProblems.update(.display, known ? nil : .noDisplay)
        let gnome = strategy == .gnome
            || (strategy == .auto && Compositor.gnome.isNamed(in: environment.value("XDG_CURRENT_DESKTOP")))
        if gnomeExtension == nil, wayland, gnome {
            let watch = GnomeExtensionWatch(connection: connection, loop: loop)
            watch.onChange = { [weak self] state in
                keyProblems.update(.gnome, state.map(KeyProblem.gnomeExtension))
                self?.fallBackToPortal(state != nil, because: "undod's GNOME Shell extension is not active")
            }
            watch.start(following: reports)
            gnomeExtension = watch
        }
        if let kwinScript, kwinScript.onProblem == nil {
            kwinScript.onProblem = { [weak self] why in
                guard let self, self.wayland else { return }
                keyProblems.update(.kwin, why.map { .kwinScript(why: $0) })
                self.fallBackToPortal(why != nil, because: "undod's KWin script is not running")
            }
        }
    }

    /// Where the compositor would bind the keys (GNOME's extension, KDE's
    /// script) and does not: the GlobalShortcuts portal binds them while
    /// that lasts, where the desktop's portal implements it (focus is then
    /// a guess, and `notify.confirm = auto` asks first); its session is
    /// closed when the compositor's own binding comes, so one press stays
    /// one undo.
    private func fallBackToPortal(_ wanted: Bool, because reason: String) {
        guard let fire, config.hotkeyUndo != nil || config.hotkeyRedo != nil, sway == nil else { return }
        if wanted, portal == nil {
            log.notice(.portalFallback, "\(reason): undod asks the GlobalShortcuts portal for the global keys meanwhile.")
            let portal = PortalShortcutTrigger(connection: connection, undo: config.hotkeyUndo,
                                               redo: config.hotkeyRedo, log: log)
            portal.start(fire: fire)
            self.portal = portal
        } else if !wanted, let portal {
            log.notice(.portalClosed, "the compositor binds the global keys again: undod closes its GlobalShortcuts portal session.")
            portal.stop()
            self.portal = nil
        }
    }

    /// Grabs the configured keys on the X display of `session`, firing `fire`.
    private func grabKeys(on session: X11Session, fire: @escaping (Direction, String) -> Void) {
        let hotkey = HotkeyTrigger(session: session, undo: config.hotkeyUndo, redo: config.hotkeyRedo, log: log)
        hotkey.start(fire: fire)
        self.hotkey = hotkey
    }

    /// Binds the configured keys in `sway`, firing `fire`.
    private func bindSwayKeys(_ sway: SwaySession, fire: @escaping (Direction, String) -> Void) {
        let keys = [(config.hotkeyUndo, "undo"), (config.hotkeyRedo, "redo")].compactMap { key, word in
            key.map { (key: $0.swayBinding, word: word) }
        }
        guard !keys.isEmpty else { return }
        sway.onBinding = { word in
            switch word {
            case "undo": fire(.undo, "sway's binding \(keys.first { $0.word == "undo" }?.key ?? "")")
            case "redo": fire(.redo, "sway's binding \(keys.first { $0.word == "redo" }?.key ?? "")")
            default: break
            }
        }
        sway.bind(keys)
    }

    /// A reloaded config: new X11 keys are grabbed at once; the focus
    /// strategy and the portal's keys change when undod restarts.
    func reload(from old: DaemonConfig, to new: DaemonConfig) {
        if new.focusStrategy != old.focusStrategy {
            log.warning(.needsRestart, "focus.strategy = \(new.focusStrategy.rawValue) takes effect when undod restarts.")
        }
        guard new.hotkeyUndo != old.hotkeyUndo || new.hotkeyRedo != old.hotkeyRedo else { return }
        if let hotkey {
            hotkey.rebind(undo: new.hotkeyUndo, redo: new.hotkeyRedo)
        } else {
            log.warning(.needsRestart, "the new hotkey.undo and hotkey.redo take effect when undod restarts.")
        }
    }

    /// Whether a display is present: an X server undod uses, a Wayland
    /// session, or sway.
    var hasDisplay: Bool { session?.isLive == true || wayland || sway != nil }

    /// Gives back what undod holds in the desktop (sway's bindings, the
    /// script in KWin).
    func stop() {
        sway?.stop()
        kwinScript?.stop()
    }

    private func windowManagerChanged() {
        guard let session, strategy == .auto || strategy == .x11 else { return }
        if let name = session.windowManager {
            log.notice(.windowManager, "\(name) answers on \(session.displayName): focus follows its active window.")
        } else {
            log.notice(.windowManagerGone, "the window manager on \(session.displayName) stopped answering: "
                + Self.withoutWindowManager(strategy))
        }
        focus.onChange?()
    }

    private func lost(_ reason: String) {
        let display = session?.displayName ?? "?"
        let hadKeys = hotkey != nil
        hotkey = nil
        log.warning(.x11Lost, "lost the X server at \(display) (\(reason)): "
            + Self.consequences(strategy: strategy, keys: hadKeys, keysWere: "are gone") + ".")
        focus.onChange?()
    }

    /// What having no window manager means under `strategy`, as a sentence's end.
    private static func withoutWindowManager(_ strategy: DaemonConfig.FocusStrategyName) -> String {
        strategy == .auto ? "focus is recent until one starts." : "no stack is focused until one starts."
    }

    /// What having no X server means under this config, as a clause.
    private static func consequences(strategy: DaemonConfig.FocusStrategyName, keys: Bool, keysWere: String) -> String {
        var parts: [String] = []
        switch strategy {
        case .auto: parts.append("focus is recent")
        case .x11: parts.append("focus.strategy = x11 finds no active window, so no stack is focused unless one is pinned with SetFocus")
        case .recent, .kwin, .gnome, .sway: break
        }
        if keys { parts.append("the global keys \(keysWere) (bind `undoctl undo` and `undoctl redo` to keys instead)") }
        return parts.isEmpty ? "undod goes on without it" : parts.joined(separator: ", and ")
    }
}
