import DBus
import X11

/// The `x11` strategy: the stack of the application whose window is active.
/// First the stacks that declared the active window (or a window it is
/// transient for) in `windows`, nearest window first; else the stacks whose
/// owner's process owns the window (`_NET_WM_PID`). Among several, the most
/// recently active. When the active window belongs to no stack, no stack is
/// focused: a trigger must never undo in an application the user is not
/// looking at. `SetFocus` pins a stack until the active window changes.
final class X11Focus: FocusStrategy {
    /// `x11`.
    let name = "x11"
    /// Called when the active window changes or an owner's process is learned.
    var onChange: (() -> Void)?

    private let tracker: ActiveWindowTracker?
    private let session: X11Session?
    private let processes: PeerProcesses
    private let loop: EventLoop
    /// The pinned stack and the active window when it was pinned.
    private var pinned: (stack: UInt64, window: XWindow?)?

    /// How long a trigger waits for the X server and the bus before it
    /// decides with what it knows.
    static let settleMilliseconds = 1_000

    /// The strategy on `session` (nil: no X server, so no stack is focused
    /// unless pinned).
    init(session: X11Session?, processes: PeerProcesses, loop: EventLoop) {
        self.session = session
        self.tracker = session.map(ActiveWindowTracker.init(session:))
        self.processes = processes
        self.loop = loop
        tracker?.onChange = { [weak self] in self?.activeWindowChanged() }
        let learned = processes.onLearned
        processes.onLearned = { [weak self] in
            learned?()
            self?.onChange?()
        }
    }

    /// The active window, while the X server is there.
    private var active: ActiveWindowTracker.ActiveWindow? {
        session?.isLive == true ? tracker?.current : nil
    }

    func focusedStack(in registry: StackRegistry) -> StackRecord? {
        let active = self.active
        if let pinned, pinned.window == active?.window, let record = registry.byNumber[pinned.stack],
           record.isFocusable {
            return record
        }
        guard let active else { return nil }
        for window in active.family {
            if let record = registry.mostRecentlyActive(where: { $0.windows.contains(window.id) }) { return record }
        }
        guard let processID = active.processID else { return nil }
        return registry.mostRecentlyActive { processes.processID(of: $0.owner) == processID }
    }

    func pin(_ record: StackRecord) {
        pinned = (record.number, active?.window)
    }

    /// Learns the owner's process; activity in the active application ends
    /// a pin (activity elsewhere moves nothing).
    func noteActivity(of record: StackRecord, in registry: StackRegistry) {
        processes.lookUp(record.owner)
        guard pinned != nil, record.isFocusable, let active else { return }
        let declared = active.family.contains { record.windows.contains($0.id) }
        let sameProcess = active.processID != nil && processes.processID(of: record.owner) == active.processID
        if declared || sameProcess { pinned = nil }
    }

    /// Reads the active window again and waits for owners' processes still
    /// being looked up, at most `settleMilliseconds`.
    func settle(then done: @escaping () -> Void) {
        guard let tracker, session?.isLive == true else { return done() }
        var finished = false
        var timer: EventLoop.Token?
        let finish = { [loop] in
            guard !finished else { return }
            finished = true
            if let timer { loop.remove(timer) }
            done()
        }
        timer = loop.schedule(afterMilliseconds: Self.settleMilliseconds, handler: finish)
        tracker.refresh { [processes] in processes.whenAnswered(finish) }
    }

    private func activeWindowChanged() {
        if let pinned, pinned.window != active?.window { self.pinned = nil }
        onChange?()
    }
}
