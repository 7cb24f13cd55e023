import Caretaker
import DBus
import Loop
import X11

/// The `x11` strategy: the stack of the application whose window is active,
/// by the rule every window strategy shares (`WindowMatch`): the stacks of
/// the window's process (X-Resource's client PID, else `_NET_WM_PID`),
/// those that declared the window or one it is transient for first; then a
/// process in the same sandbox; then, where the window's process owns no
/// stack, the stacks that declared it. When the active window belongs to no
/// stack — or no EWMH window manager says which window is active, or the X
/// server did not answer in time — no stack is focused: a trigger must
/// never undo in an application the user is not looking at. `SetFocus` pins
/// a stack until the active window changes. Declared windows that do not
/// exist, or are destroyed, are forgotten (X reuses window ids).
final class X11Focus: FocusStrategy {
    /// `x11`.
    let name = "x11"
    /// Called when the active window changes, an owner's process is
    /// learned, or a declared window goes.
    var onChange: (() -> Void)?

    private let tracker: ActiveWindowTracker?
    private let session: X11Session?
    private let processes: PeerProcesses
    private let registry: StackRegistry
    private let loop: EventLoop
    /// The pinned stack and the active window when it was pinned.
    private var pinned: (stack: UInt64, window: XWindow?)?
    /// Whether the last settle got the X server's answer in time.
    private var answered = true
    /// Declared windows whose destruction undod has asked to hear of.
    private var watched: Set<UInt32> = []

    /// How long a trigger waits for the X server and the bus before it
    /// decides; without their answer, nothing is focused.
    static let settleMilliseconds = 1_000

    /// The strategy on `session` (nil: no X server, so no stack is focused
    /// unless pinned), over the stacks of `registry`.
    init(session: X11Session?, processes: PeerProcesses, registry: StackRegistry, loop: EventLoop) {
        self.session = session
        self.tracker = session.map(ActiveWindowTracker.init(session:))
        self.processes = processes
        self.registry = registry
        self.loop = loop
        tracker?.onChange = { [weak self] in self?.activeWindowChanged() }
        let learned = processes.onLearned
        processes.onLearned = { [weak self] in
            learned?()
            self?.onChange?()
        }
        session?.addListener { [weak self] event in
            guard case .destroyed(let window) = event else { return }
            self?.declaredWindowWent(window.id)
        }
    }

    /// The active window, while the X server is there, an EWMH window
    /// manager says which window is active, and the last settle was answered.
    private var active: ActiveWindowTracker.ActiveWindow? {
        guard let session, session.isLive, session.windowManager != nil, answered else { return nil }
        return tracker?.current
    }

    /// The pinned stack while the active window is the one it was pinned
    /// at; else the stack in front by `WindowMatch`.
    func focusedStack(in registry: StackRegistry) -> StackRecord? {
        let active = self.active
        if let pinned, pinned.window == active?.window, let record = registry.byNumber[pinned.stack],
           record.isFocusable {
            return record
        }
        return try? match(active, in: registry).get()
    }

    /// Why no stack is in front.
    func reasonForNoFocus(in registry: StackRegistry) -> NoFocus? {
        guard let session, session.isLive else { return .unknown("there is no X server to say which window is active") }
        guard session.windowManager != nil else {
            return .unknown("no EWMH window manager says which window is active")
        }
        guard answered else { return .unknown("the X server did not say in time which window is active") }
        if case .failure(let why) = match(active, in: registry) { return why }
        return nil
    }

    /// Whether the stack in front is one of several shells of the active
    /// window's terminal with history, and not pinned there.
    func isGuessing(in registry: StackRegistry) -> Bool {
        let active = self.active
        if let pinned, pinned.window == active?.window, registry.byNumber[pinned.stack]?.isFocusable == true {
            return false
        }
        return processes.matcher.isGuess(for: front(of: active), in: registry)
    }

    /// The stack in front of `active` by the shared rule.
    private func match(_ active: ActiveWindowTracker.ActiveWindow?, in registry: StackRegistry) -> Result<StackRecord, NoFocus> {
        guard let front = front(of: active) else { return .failure(.noWindow) }
        return processes.matcher.stack(for: front, in: registry)
    }

    /// The active window as the shared rule sees it.
    private func front(of active: ActiveWindowTracker.ActiveWindow?) -> FrontWindow? {
        guard let active else { return nil }
        let pid = active.processID ?? 0
        return FrontWindow(processID: pid, windows: active.family.map(\.id), label: label(of: pid, window: active.window))
    }

    /// `xterm (pid 4242)`, or the window's id when its process is unknown.
    private func label(of pid: UInt32, window: XWindow) -> String {
        pid == 0 ? "window \(window.id)" : processes.label(of: pid)
    }

    /// The active window, when `record` is not one of its stacks.
    func windowRefusingPin(of record: StackRecord, in registry: StackRegistry) -> String? {
        guard let front = front(of: active) else { return nil }
        return processes.matcher.candidates(for: front, in: registry).contains { $0 === record } ? nil : front.label
    }

    /// Pins `record` at the window active now.
    func pin(_ record: StackRecord) {
        pinned = (record.number, active?.window)
    }

    /// Learns the owner's process and watches its declared windows;
    /// activity in the application in front ends a pin (activity elsewhere
    /// moves nothing).
    func noteActivity(of record: StackRecord) {
        processes.lookUp(record.owner)
        watchWindows(of: record)
        guard pinned != nil, record.isFocusable, let active else { return }
        let declared = active.family.contains { record.windows.contains($0.id) }
        let sameProcess = active.processID != nil && processes.processID(of: record.owner) == active.processID
        if declared || sameProcess { pinned = nil }
    }

    /// Reads the active window again and waits for the owners' processes
    /// not yet known, at most `settleMilliseconds`; without the X server's
    /// answer by then, no stack is focused for this trigger.
    func settle(then done: @escaping () -> Void) {
        guard let tracker, session?.isLive == true else { return done() }
        for record in registry.byNumber.values where record.isFocusable { processes.lookUp(record.owner) }
        var finished = false
        var timer: EventLoop.Token?
        let finish = { [weak self, loop] (inTime: Bool) in
            guard !finished else { return }
            finished = true
            if let timer { loop.remove(timer) }
            self?.answered = inTime
            done()
        }
        timer = loop.schedule(afterMilliseconds: Self.settleMilliseconds) { finish(false) }
        tracker.refresh { [processes] in processes.whenAnswered { finish(true) } }
    }

    private func activeWindowChanged() {
        answered = true
        if let pinned, pinned.window != tracker?.current?.window { self.pinned = nil }
        onChange?()
    }

    // MARK: Declared windows

    /// Asks to hear when `record`'s declared windows are destroyed, and
    /// forgets those that do not exist. The root window is never a window
    /// of an application.
    private func watchWindows(of record: StackRecord) {
        guard let session, session.isLive else { return }
        let connection = session.connection
        if record.windows.contains(connection.root.id) { record.windows.remove(connection.root.id) }
        for id in record.windows where !watched.contains(id) {
            guard connection.selectEvents(.structureNotify, on: XWindow(id)) else { return }
            watched.insert(id)
            connection.windowExists(XWindow(id)) { [weak self] exists in
                if !exists { self?.declaredWindowWent(id) }
            }
        }
    }

    /// A declared window is gone: no stack may be found by it any more (a
    /// new window may get its id).
    private func declaredWindowWent(_ id: UInt32) {
        guard watched.remove(id) != nil else { return }
        for record in registry.byNumber.values where record.windows.contains(id) { record.windows.remove(id) }
        onChange?()
    }
}
