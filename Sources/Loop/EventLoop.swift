#if canImport(Glibc)
import Glibc
#endif
internal import CShim
import Synchronization
import SystemClock
import SystemCalls

/// The one loop that drives a process's D-Bus connections, timers, file
/// descriptors and Unix signals, on one thread: the first that uses it.
///
/// Everything registered with the loop runs on that thread, one thing at a
/// time, so the state it touches needs no locks. Debug builds check it: each
/// loop-confined entry point (here, in `Connection` and in `ObjectServer`)
/// calls `assertInLoop`. Other threads use the loop's `handle`, which is
/// `Sendable`: `perform`.
///
/// A *turn* waits in `poll`, handles what became ready (sockets, timers,
/// signals), lets connections dispatch what they read, runs the work that
/// handlers deferred, and then runs the end-of-turn hooks: the place where a
/// store commits everything the turn changed in one transaction before the
/// replies that depend on it leave. Then the after-turn hooks may take on
/// large work (a connection's held large call): if one does, the work it
/// deferred runs and the end-of-turn hooks run again, so the large work is
/// committed and answered in a step of its own and the turn's small answers
/// never wait for it.
public final class EventLoop {

    /// A handle for something registered with the loop, to remove it later.
    public struct Token: Hashable, Sendable {
        let id: Int
        /// What it registered: removing it touches that registry alone (a
        /// timer is cancelled once per `Apply`, and each registry is a hash
        /// lookup).
        let kind: Kind

        enum Kind: Hashable, Sendable {
            case watch, timer, workHook, turnEndHook, afterTurnHook
        }
    }

    /// Readiness of a file descriptor, as `poll` reports it.
    public struct FDEvents: OptionSet, Sendable {
        /// The raw `poll` bits.
        public let rawValue: Int16
        /// Makes events from `poll` bits.
        public init(rawValue: Int16) { self.rawValue = rawValue }
        /// Data to read.
        public static let readable = FDEvents(rawValue: Int16(POLLIN))
        /// Room to write.
        public static let writable = FDEvents(rawValue: Int16(POLLOUT))
    }

    private struct FDSource {
        var fd: Int32
        var events: FDEvents
        var enabled: Bool
        var handler: () -> Void
    }

    private struct Timer {
        var deadline: Int64
        var handler: () -> Void
    }

    private var fdSources: [Int: FDSource] = [:]
    private var timers: [Int: Timer] = [:]
    private var tasks: [() -> Void] = []
    /// Buffers each turn reuses rather than allocates anew: the tasks run
    /// last, and the poll set with its sources' ids. Taken while in use (a
    /// turn nested in a handler allocates its own), put back emptied.
    private var spareTasks: [() -> Void] = []
    private var spareFDs: [pollfd] = []
    private var spareIDs: [Int] = []
    private var workHooks: [Int: () -> Bool] = [:]
    private var turnEndHooks: [(id: Int, hook: () -> Void)] = []
    private var afterTurnHooks: [Int: () -> Bool] = [:]
    /// The after-turn hooks' ids in the order they were added.
    private var afterTurnOrder: [Int] = []
    private var signalHandlers: [Int32: () -> Void] = [:]
    private var signalPipe: (read: Int32, write: Int32)?
    private var nextID = 1
    private var stopRequested = false
    private let mailbox = Mailbox()
    #if DEBUG
    /// The thread the loop belongs to, once something used it.
    private var thread: pthread_t?
    #endif

    /// Makes a loop. It runs nothing until `run` is called, and belongs to
    /// the first thread that uses it.
    public init() {}

    deinit {
        if let signalPipe {
            close(signalPipe.read)
            close(signalPipe.write)
        }
    }

    /// What other threads may use: `perform`.
    public var handle: Handle { Handle(mailbox: mailbox) }

    /// Stops with a message, in debug builds, unless the caller runs on the
    /// loop's thread (the first thread that used the loop becomes it), as
    /// swift-nio's `assertInEventLoop` does. Nothing in release builds.
    @inline(__always)
    public func assertInLoop(file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
        let current = pthread_self()
        if let thread {
            precondition(pthread_equal(thread, current) != 0,
                         "An EventLoop was used from a thread other than its own; hand work over with `handle.perform`.",
                         file: file, line: line)
        } else {
            thread = current
        }
        #endif
    }

    private func makeToken(_ kind: Token.Kind) -> Token {
        defer { nextID += 1 }
        return Token(id: nextID, kind: kind)
    }

    // MARK: Registration (loop thread)

    /// Calls `handler` whenever `fd` is ready for `events` while enabled,
    /// or `poll` reports an error or a hang-up on it (which the handler
    /// meets as it reads or writes).
    public func watch(fd: Int32, events: FDEvents, enabled: Bool = true,
                      handler: @escaping () -> Void) -> Token {
        assertInLoop()
        let token = makeToken(.watch)
        fdSources[token.id] = FDSource(fd: fd, events: events, enabled: enabled, handler: handler)
        return token
    }

    /// Turns a watched descriptor on or off without forgetting it.
    public func setEnabled(_ token: Token, _ enabled: Bool) {
        assertInLoop()
        fdSources[token.id]?.enabled = enabled
    }

    /// Calls `handler` once, `milliseconds` from now.
    @discardableResult
    public func schedule(afterMilliseconds milliseconds: Int, handler: @escaping () -> Void) -> Token {
        assertInLoop()
        let token = makeToken(.timer)
        timers[token.id] = Timer(deadline: SystemTime.monotonicNanoseconds + Int64(max(0, milliseconds)) * 1_000_000, handler: handler)
        return token
    }

    /// Calls `handler` on every turn before deferred work; it returns whether
    /// it still has work, so the loop does not sleep while it has.
    public func addWorkHook(_ handler: @escaping () -> Bool) -> Token {
        assertInLoop()
        let token = makeToken(.workHook)
        workHooks[token.id] = handler
        return token
    }

    /// Calls `hook` at the end of every turn, after all deferred work, in the
    /// order hooks were added.
    public func addTurnEndHook(_ hook: @escaping () -> Void) -> Token {
        assertInLoop()
        let token = makeToken(.turnEndHook)
        turnEndHooks.append((token.id, hook))
        return token
    }

    /// Calls `hook` at the end of every turn, once the end-of-turn hooks have
    /// run (the turn's changes committed, its replies sent), in the order
    /// hooks were added. A hook that returns true did work: the loop then
    /// runs the tasks that work deferred and the end-of-turn hooks again,
    /// so that the work is committed and answered on its own.
    public func addAfterTurnHook(_ hook: @escaping () -> Bool) -> Token {
        assertInLoop()
        let token = makeToken(.afterTurnHook)
        afterTurnHooks[token.id] = hook
        afterTurnOrder.append(token.id)
        return token
    }

    /// Removes a watch, timer, work hook, turn-end or after-turn hook.
    /// Removing twice is harmless.
    public func remove(_ token: Token) {
        assertInLoop()
        switch token.kind {
        case .watch: fdSources[token.id] = nil
        case .timer: timers[token.id] = nil
        case .workHook: workHooks[token.id] = nil
        case .turnEndHook: turnEndHooks.removeAll { $0.id == token.id }
        case .afterTurnHook:
            if afterTurnHooks.removeValue(forKey: token.id) != nil { afterTurnOrder.removeAll { $0 == token.id } }
        }
    }

    /// Runs `task` later in this turn (or the next), after the current
    /// handler has returned: how callbacks from C are kept out of C.
    public func soon(_ task: @escaping () -> Void) {
        assertInLoop()
        tasks.append(task)
    }

    /// Runs `handler` on the loop whenever the process receives `signal`.
    /// The signal is unblocked for this thread, as a parent may have started
    /// the process with it blocked.
    public func onSignal(_ signal: Int32, handler: @escaping () -> Void) {
        assertInLoop()
        if signalPipe == nil {
            var fds: [Int32] = [-1, -1]
            guard cshim_nonblocking_pipe(&fds) == 0 else { return }
            signalPipe = (fds[0], fds[1])
        }
        guard let signalPipe else { return }
        signalHandlers[signal] = handler
        _ = cshim_route_signal_to_fd(signal, signalPipe.write)
    }

    /// Makes `run` return after the current turn (on the loop's thread;
    /// from another, hand it over with `handle.perform`).
    public func stop() {
        assertInLoop()
        stopRequested = true
    }

    // MARK: Running (loop thread)

    /// Runs turns until `stop` is called (at once if it was called before).
    public func run() {
        assertInLoop()
        while !stopRequested { runTurn(maxWaitMilliseconds: -1) }
        stopRequested = false
    }

    /// Runs turns until `condition` holds or `timeoutMilliseconds` pass;
    /// returns whether the condition held. For command-line tools and tests,
    /// never for a daemon's handlers.
    @discardableResult
    public func run(until condition: () -> Bool, timeoutMilliseconds: Int) -> Bool {
        let deadline = SystemTime.monotonicNanoseconds + Int64(timeoutMilliseconds) * 1_000_000
        while !condition() {
            let left = deadline - SystemTime.monotonicNanoseconds
            if left <= 0 { return false }
            runTurn(maxWaitMilliseconds: Int((left + 999_999) / 1_000_000))
        }
        return true
    }

    /// One turn: wait up to `maxWaitMilliseconds` (-1: as long as needed),
    /// handle what is ready, run deferred work and the end-of-turn hooks;
    /// then the after-turn hooks, and if any did work, what it deferred and
    /// the end-of-turn hooks again.
    public func runTurn(maxWaitMilliseconds: Int) {
        assertInLoop()
        takeHandedOverTasks()

        var wait = maxWaitMilliseconds
        // The work hooks first: what they queue now (a connection
        // dispatching the last messages it read) is work too, even when
        // they report nothing more to come. Asked after the tasks, a hook
        // that queued its last messages left the loop asleep with them.
        // Every hook, even after one said it has more: a connection writes
        // what it sent in its hook, and one skipped would not.
        var hooksHaveMore = false
        for hook in workHooks.values where hook() { hooksHaveMore = true }
        let busy = hooksHaveMore || !tasks.isEmpty || stopRequested
        if busy {
            wait = 0
        } else if let next = earliestDeadline {
            let untilNext = Int(max(0, (next - SystemTime.monotonicNanoseconds + 999_999) / 1_000_000))
            wait = wait < 0 ? untilNext : min(wait, untilNext)
        }
        poll(waitMilliseconds: wait)
        fireTimers()
        drainWork()
        runTurnEndHooks()
        var didWork = false
        // A hook's work may remove hooks (a connection closed): each is
        // looked up by its id before it runs. One lookup a hook: a client
        // process may hold a thousand connections on one loop.
        for id in afterTurnOrder {
            if let hook = afterTurnHooks[id], hook() { didWork = true }
        }
        guard didWork else { return }
        drainWork(takingNewWork: false)
        runTurnEndHooks()
    }

    /// Queues the tasks other threads handed over. One at a time: an array
    /// of `@Sendable` closures converted whole to one of plain closures is
    /// cast at run time, and the runtime refuses that cast.
    private func takeHandedOverTasks() {
        for task in mailbox.take() { tasks.append(task) }
    }

    private func runTurnEndHooks() {
        for (_, hook) in turnEndHooks { hook() }
    }

    private func poll(waitMilliseconds: Int) {
        var ids = spareIDs, fds = spareFDs
        (spareIDs, spareFDs) = ([], [])
        defer {
            ids.removeAll(keepingCapacity: true)
            fds.removeAll(keepingCapacity: true)
            (spareIDs, spareFDs) = (ids, fds)
        }
        fds.append(pollfd(fd: mailbox.wakeRead, events: Int16(POLLIN), revents: 0))
        if let signalPipe { fds.append(pollfd(fd: signalPipe.read, events: Int16(POLLIN), revents: 0)) }
        let fixed = fds.count
        for (id, source) in fdSources where source.enabled {
            ids.append(id)
            fds.append(pollfd(fd: source.fd, events: source.events.rawValue, revents: 0))
        }
        let ready = fds.withUnsafeMutableBufferPointer {
            SystemCall.poll($0, milliseconds: Int32(clamping: waitMilliseconds))
        }
        guard case .success(let count) = ready, count > 0 else { return }
        if fds[0].revents != 0 {
            mailbox.drainWake()
            // Tasks handed over while this turn waited.
            takeHandedOverTasks()
        }
        if let signalPipe, fds[1].revents != 0 {
            drain(signalPipe.read) { signal in self.signalHandlers[Int32(signal)]?() }
        }
        for (index, id) in ids.enumerated() {
            let revents = fds[fixed + index].revents
            // A handler may have removed or disabled this source meanwhile.
            guard revents != 0, let source = fdSources[id], source.enabled else { continue }
            source.handler()
        }
    }

    private func drain(_ fd: Int32, each: (UInt8) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            guard case .success(let count) = buffer.withUnsafeMutableBytes({ SystemCall.read(fd, into: $0) }),
                  count > 0 else { return }
            buffer[0..<count].forEach(each)
        }
    }

    /// The earliest timer's deadline, nil with none: a plain walk (a key
    /// path's projection cost more than the walk, at every turn a timer
    /// is pending).
    private var earliestDeadline: Int64? {
        guard !timers.isEmpty else { return nil }
        var earliest = Int64.max
        for timer in timers.values where timer.deadline < earliest { earliest = timer.deadline }
        return earliest
    }

    private func fireTimers() {
        guard !timers.isEmpty else { return }
        let now = SystemTime.monotonicNanoseconds
        guard timers.values.contains(where: { $0.deadline <= now }) else { return }
        let due = timers.filter { $0.value.deadline <= now }.sorted { $0.value.deadline < $1.value.deadline }
        for (id, timer) in due where timers[id] != nil {
            timers[id] = nil
            timer.handler()
        }
    }

    /// Runs deferred tasks, and the tasks they defer, up to 64 rounds; with
    /// `takingNewWork` each round first lets the work hooks queue what they
    /// have (connections dispatch what they read). The after-turn step takes
    /// none: what a connection read meanwhile waits for the next turn, not
    /// for that step's commit.
    private func drainWork(takingNewWork: Bool = true) {
        var rounds = 0
        repeat {
            if takingNewWork { for hook in workHooks.values { _ = hook() } }
            var batch = spareTasks
            spareTasks = []
            swap(&batch, &tasks)
            for task in batch { task() }
            // Kept for the next turn while small: a flood's batch is let go.
            batch.removeAll(keepingCapacity: batch.count <= 1024)
            spareTasks = batch
            rounds += 1
        } while !tasks.isEmpty && rounds < 64
    }
}
