import Caretaker
import Loop
import Logging
import Synchronization
import Undo1
import UndoCore
import UndoStore

/// An `UndoService` in this process with no bus: a store that can be told
/// to fail, a clock and timers that move only when the test says, a
/// publisher that records, and applications the test answers for.
final class ServiceFixture {
    let clock = TestClock()
    let scheduler = ManualScheduler()
    let store = ScriptedStore()
    let publisher = RecordingPublisher()
    let apps = HeldApps()
    let service: UndoService

    init(settings: ServiceSettings = ServiceSettings()) throws {
        service = UndoService(settings: settings, log: Log(verbose: false, journal: false) { _ in }, store: store, focus: RecentFocus(),
                              clock: clock, version: "test", publisher: publisher, transport: apps,
                              scheduler: scheduler)
        try service.start()
    }

    /// Moves the clock and the timers on by `milliseconds`, firing what falls due.
    func advance(milliseconds: Int64) {
        clock.advance(milliseconds: milliseconds)
        scheduler.advance(milliseconds: milliseconds)
    }

    /// Ends the turn, as the loop does after each one.
    func endTurn() {
        service.endTurn()
    }

    /// Registers `appId` for `caller`, a program of `origin`, and ends the turn.
    func register(_ appId: String, caller: String = ":1.1", options: RegistrationOptions = RegistrationOptions(),
                  origin: StackOrigin? = nil, served: ServedProcess? = nil) throws(ServiceError) -> StackRecord {
        let answer = ServiceAnswer<StackRecord>()
        service.register(caller: caller, appId: appId, options: options, origin: origin, served: served,
                         reply: answer.take)
        endTurn()
        return try answer.get()
    }

    /// Pushes a group named `name` (payloads `u-name` and `r-name`) without
    /// ending the turn; the answer says what came of it.
    func pushKeepingTurn(_ record: StackRecord, _ name: String, caller: String = ":1.1",
                         bytes: Int = 0) -> ServiceAnswer<PushResult> {
        let answer = ServiceAnswer<PushResult>()
        let undo = Array("u-\(name)".utf8) + [UInt8](repeating: 0, count: bytes)
        service.push(record, caller: caller, name: name, actions: EncodedActions([Action(undo: undo, redo: Array("r-\(name)".utf8))]),
                     hints: PushHints(), reply: answer.take)
        return answer
    }

    /// Pushes a group and ends the turn.
    @discardableResult
    func push(_ record: StackRecord, _ name: String, caller: String = ":1.1", bytes: Int = 0) throws(ServiceError) -> PushResult {
        let answer = pushKeepingTurn(record, name, caller: caller, bytes: bytes)
        endTurn()
        return try answer.get()
    }

    /// The names of `record`'s undo side, oldest first.
    func undoNames(_ record: StackRecord) -> [String] {
        record.stack.history.undo.map(\.name).reversed()
    }
}

/// An answer the service gives later (or at once): the test reads it after the turn.
final class ServiceAnswer<T> {
    private(set) var result: Result<T, ServiceError>?

    /// Where the service puts it.
    func take(_ result: Result<T, ServiceError>) { self.result = result }

    /// The value, or the refusal thrown; a missing answer is a failure too.
    func get() throws(ServiceError) -> T {
        guard let result else { throw .invalidArgs("no answer yet") }
        return try result.get()
    }

    /// The refusal, if that is what came.
    var error: ServiceError? {
        if case .failure(let error) = result { error } else { nil }
    }
}

/// A clock the test moves.
final class TestClock: UndoClock, @unchecked Sendable {
    // @unchecked: one test's thread only.
    private(set) var now: Int64 = 1_800_000_000_000_000

    /// Moves on by `milliseconds`.
    func advance(milliseconds: Int64) { now += milliseconds * 1_000 }
}

/// Timers that fire only when the test moves time on, in the order they fall due.
final class ManualScheduler: Scheduler {
    private var timers: [Int: (due: Int64, handler: () -> Void)] = [:]
    private var next = 0
    private var now: Int64 = 0

    var nanoseconds: Int64 { now * 1_000_000 }

    func schedule(afterMilliseconds milliseconds: Int, _ handler: @escaping () -> Void) -> ScheduledTimer {
        scheduled += 1
        next += 1
        let id = next
        timers[id] = (now + Int64(milliseconds), handler)
        return ScheduledTimer { [weak self] in self?.timers[id] = nil }
    }

    /// Moves on by `milliseconds`, firing every timer that falls due (and
    /// those they set that fall due too).
    func advance(milliseconds: Int64) {
        let end = now + milliseconds
        while let (id, timer) = timers.filter({ $0.value.due <= end }).min(by: { $0.value.due < $1.value.due }) {
            timers[id] = nil
            now = max(now, timer.due)
            timer.handler()
        }
        now = end
    }

    /// How many timers wait.
    var pending: Int { timers.count }
    /// How many timers were ever set.
    private(set) var scheduled = 0
}

/// What the service published and announced, in order.
final class RecordingPublisher: StackPublisher {
    private(set) var published: [String] = []
    private(set) var withdrawn: [String] = []
    private(set) var announcements: [Announcement] = []

    func publish(_ record: StackRecord, of service: UndoService) { published.append(record.path) }

    func withdraw(path: String) -> [String] {
        withdrawn.append(path)
        return [Undo1.stackInterface]
    }

    func send(_ announcement: Announcement) { announcements.append(announcement) }

    /// The `Pushed` signals sent, by group name.
    var pushed: [String] {
        announcements.compactMap { if case .pushed(_, let signal) = $0 { signal.name } else { nil } }
    }

    /// The paths of the stacks announced as removed.
    var removed: [String] {
        announcements.compactMap { if case .stackRemoved(let path, _) = $0 { path } else { nil } }
    }

    /// Forgets what was recorded.
    func clear() { announcements.removeAll() }
}

/// Applications that answer `Apply` only when the test says.
final class HeldApps: ApplyTransport {
    /// One `Apply` out, waiting for its answer.
    struct Request {
        let arguments: ApplyArguments
        let owner: String
        let answer: (ApplyAnswer) -> Void
    }

    private(set) var waiting: [Request] = []

    func apply(_ arguments: ApplyArguments, at owner: String, answer: @escaping (ApplyAnswer) -> Void) {
        waiting.append(Request(arguments: arguments, owner: owner, answer: answer))
    }

    /// Answers the oldest `Apply` waiting with `answer`; returns what it asked.
    @discardableResult
    func answerNext(_ answer: ApplyAnswer = .applied) -> ApplyArguments? {
        guard !waiting.isEmpty else { return nil }
        let request = waiting.removeFirst()
        request.answer(answer)
        return request.arguments
    }
}

/// A store that keeps nothing but behaves as a disk that can fail: every
/// change needs a commit, and `failing` makes commits throw.
final class ScriptedStore: HistoryStore {
    /// Whether commits fail (as on a full disk).
    var failing = false
    private var dirty = false
    private var reserved = StoreCounters(nextStackNumber: 1, nextGroupID: 1)
    private(set) var commits = 0

    func load(settings: ServiceSettings, now: Int64) throws(StoreError) -> (stacks: [StackRecord], counters: StoreCounters) {
        ([], StoreCounters(nextStackNumber: 1, nextGroupID: 1))
    }
    func stackChanged(_ record: StackRecord, groups: [GroupChange]) { dirty = true }
    func stackRemoved(number: UInt64) { dirty = true }
    func isSavedAsIs(_ number: UInt64) -> Bool { false }
    func loadAllActions(of record: StackRecord) throws(StoreError) {}
    func storedHistory(of record: StackRecord, settings: StackSettings) throws(StoreError) -> UndoStack {
        UndoStack(settings: settings)
    }
    func loadActions(ofTop side: Direction, in record: StackRecord) throws(StoreError) {}
    func needsCommit(counters: StoreCounters) -> Bool { dirty || !hasReserved(counters) }
    func hasReserved(_ counters: StoreCounters) -> Bool {
        counters.nextStackNumber < reserved.nextStackNumber && counters.nextGroupID < reserved.nextGroupID
    }
    func commit(counters: StoreCounters) throws(StoreError) {
        guard dirty || !hasReserved(counters) else { return }
        if failing { throw StoreError("the disk is full") }
        commits += 1
        dirty = false
        reserved = StoreCounters(nextStackNumber: counters.nextStackNumber + 16, nextGroupID: counters.nextGroupID + 16)
    }
    func close() {}
}
