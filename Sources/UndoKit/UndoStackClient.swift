import DBus
public import Dispatch
import Locking
import Undo1
import Undo1Wire
public import UndoCore

/// One registered stack; the app owns it. Pushes arrive in the order they
/// are made; none blocks the caller's thread. The stack keeps its client
/// alive; dropped without `close`, it detaches (undod keeps its history for
/// a later `register`).
public final class UndoStackClient: Sendable {
    private let bus: BusThread
    /// The client it came from, kept alive as long as the stack is.
    private let client: UndoClient
    /// The app id it was registered with.
    public let appId: String
    private let state: Lock<State>

    /// What changes: where the stack is, how it registers, who applies.
    private struct State {
        var path: String
        var options: StackOptions
        var handler: Handler?
        var reattached: [Int: AsyncStream<String>.Continuation] = [:]
        var nextObserver = 0
        var closed = false
        var discardWhenDropped = false
    }

    /// Where `Apply` calls land.
    enum Handler {
        /// An async function, on whatever actor it is isolated to.
        case task(@Sendable (ApplyRequest) async throws -> Void)
        /// A function on a dispatch queue the app chose.
        case queue(DispatchQueue, @Sendable (ApplyRequest) throws -> Void)
    }

    init(client: UndoClient, appId: String, options: StackOptions, path: String, handler: Handler? = nil) {
        self.client = client
        bus = client.bus
        self.appId = appId
        state = Lock(State(path: path, options: options, handler: handler))
    }

    deinit {
        // Dropped without `close`: give the stack up, so that it neither
        // stays owned by a connection that no longer serves it, nor focused.
        let (closed, discard, path) = state.withLock { ($0.closed, $0.discardWhenDropped, $0.path) }
        for observer in state.withLock({ Array($0.reattached.values) }) { observer.finish() }
        guard !closed else { return }
        bus.post({ _ throws(DBusError) in try Undo1Call.close(path, discard: discard) }) { _ in }
    }

    /// The stack's object path, `/org/undod/Undo1/stack/<n>` (a new one
    /// when undod restarted without keeping the stack).
    public var path: String { state.withLock { $0.path } }

    /// The options it registers with (again, after undod restarted).
    public var options: StackOptions { state.withLock { $0.options } }

    /// Marks a stack object that never became this client's (registered
    /// twice): going, it must not close the stack the first one holds.
    func forgetWithoutClosing() {
        state.withLock { $0.closed = true }
    }

    /// Whether dropping the stack without `close` discards it (an
    /// `UndoManager`'s stack: nobody else could apply its groups).
    var discardWhenDropped: Bool {
        get { state.withLock { $0.discardWhenDropped } }
        set { state.withLock { $0.discardWhenDropped = newValue } }
    }

    // MARK: Applying

    /// Where undod's `Client.Apply` calls land: `handler` runs in a task of
    /// its own (isolated as it is declared: a `@MainActor` closure runs on
    /// the main actor). Any error it throws fails the undo (the caller gets
    /// `ClientFailed` and the stack is unchanged); `UndoKitError.obsolete`
    /// answers Obsolete (undod drops the group).
    public func setApplyHandler(_ handler: @escaping @Sendable (ApplyRequest) async throws -> Void) {
        state.withLock { $0.handler = .task(handler) }
    }

    /// Like `setApplyHandler(_:)`, with `handler` run on `queue`.
    public func setApplyHandler(on queue: DispatchQueue, _ handler: @escaping @Sendable (ApplyRequest) throws -> Void) {
        state.withLock { $0.handler = .queue(queue, handler) }
    }

    /// Like `setApplyHandler(_:)`, with `handler` run on the main actor.
    public func setMainActorApplyHandler(_ handler: @escaping @MainActor @Sendable (ApplyRequest) throws -> Void) {
        setApplyHandler { request in try await handler(request) }
    }

    /// Runs the handler for `request` and reports how it ended.
    func deliver(_ request: ApplyRequest, done: @escaping @Sendable (Result<Void, UndoKitError>) -> Void) {
        let outcome: @Sendable ((any Error)?) -> Void = { error in
            guard let error else { return done(.success(())) }
            if let error = error as? UndoKitError { return done(.failure(error)) }
            done(.failure(UndoKitError(name: UndoKitError.handlerFailed.name,
                                       message: "The apply handler threw \(error).")))
        }
        switch state.withLock({ $0.handler }) {
        case nil:
            done(.failure(UndoKitError(name: UndoKitError.noHandler.name,
                                       message: "The application set no apply handler for \(request.stack).")))
        case .task(let handler):
            Task {
                do { try await handler(request); outcome(nil) } catch { outcome(error) }
            }
        case .queue(let queue, let handler):
            queue.async {
                do { try handler(request); outcome(nil) } catch { outcome(error) }
            }
        }
    }

    // MARK: Pushing

    /// Records a group of one action; returns its id (the top group's when
    /// it merged, by `mergeKey`, into it).
    @discardableResult
    public func push(_ name: String, undo: [UInt8], redo: [UInt8], mergeKey: String? = nil) async throws(UndoKitError) -> UInt64 {
        try await push(name, actions: [UndoAction(undo: undo, redo: redo)], mergeKey: mergeKey)
    }

    /// Records a group of several actions, in the order they were done.
    @discardableResult
    public func push(_ name: String, actions: [UndoAction], mergeKey: String? = nil) async throws(UndoKitError) -> UInt64 {
        try await push(name, actions: actions, hints: PushHints(mergeKey: mergeKey ?? ""))
    }

    /// Records a group of several actions with every hint a push takes.
    @discardableResult
    public func push(_ name: String, actions: [UndoAction], hints: PushHints) async throws(UndoKitError) -> UInt64 {
        let reply = try await bus.call(on: self, Self.message(name, actions: actions, hints: hints))
        guard let group = reply.first?.uint64 else { throw Self.badReply("a push") }
        return group
    }

    /// Queues a push without waiting for it, for code that cannot await (a
    /// UI callback): sent in order with every other call of this client,
    /// at once; `done`, if given, is called on UndoKit's bus thread with the
    /// group id or the error.
    public func pushLater(_ name: String, actions: [UndoAction], hints: PushHints = PushHints(),
                          done: (@Sendable (Result<UInt64, UndoKitError>) -> Void)? = nil) {
        bus.post(on: self, Self.message(name, actions: actions, hints: hints)) { result in
            done?(result.flatMap { reply in
                reply.first?.uint64.map { .success($0) } ?? .failure(Self.badReply("a push"))
            })
        }
    }

    private static func message(_ name: String, actions: [UndoAction],
                                hints: PushHints) -> @Sendable (String) throws(DBusError) -> Message {
        { path throws(DBusError) in
            if actions.count == 1, let action = actions.first {
                return try Undo1Call.push(path, name: name, undo: action.undo, redo: action.redo, hints: hints)
            }
            return try Undo1Call.pushGroup(path, name: name, actions: actions.map { ($0.undo, $0.redo) }, hints: hints)
        }
    }

    // MARK: Undo, redo and the rest

    /// Undoes the top group: undod calls this app's apply handler with its
    /// undo payloads, and answers once it succeeded.
    public func undo() async throws(UndoKitError) -> AppliedGroup { try await apply(.undo) }

    /// Redoes the top redo group.
    public func redo() async throws(UndoKitError) -> AppliedGroup { try await apply(.redo) }

    private func apply(_ direction: UndoDirection) async throws(UndoKitError) -> AppliedGroup {
        let wire = direction.wire
        let reply = try await bus.call(on: self, timeout: BusThread.applyTimeoutMilliseconds) { path throws(DBusError) in
            try Undo1Call.apply(wire, on: path)
        }
        guard let applied = AppliedReply(reply, stack: path) else { throw Self.badReply("an \(direction.rawValue)") }
        return AppliedGroup(stack: applied.stack, group: applied.group, name: applied.name)
    }

    /// Marks the present state as clean (saved).
    public func setClean() async throws(UndoKitError) { try await simple(.setClean) }

    /// Tells undod this app has the user's focus (call it when a window of
    /// the app is activated: where undod cannot see windows, it is how the
    /// global key finds the app).
    public func activate() async throws(UndoKitError) { try await simple(.activate) }

    /// Tells undod this app no longer has the user's focus (call it when
    /// the app's windows lose focus): where undod cannot see windows, the
    /// global key then undoes nowhere rather than here.
    public func deactivate() async throws(UndoKitError) { try await simple(.deactivate) }

    /// Drops the whole history.
    public func clear() async throws(UndoKitError) { try await simple(.clear) }

    /// Gives the stack up: `discard` deletes it; otherwise undod keeps it for
    /// a later `register` to adopt.
    public func close(discard: Bool) async throws(UndoKitError) {
        _ = try await bus.call(on: self) { path throws(DBusError) in try Undo1Call.close(path, discard: discard) }
        state.withLock { $0.closed = true }
        bus.perform { [self] in $0.forget(self) }
    }

    /// The stack's properties, read now.
    public func state() async throws(UndoKitError) -> StackState {
        let reply = try await bus.call(on: self) { path throws(DBusError) in try Undo1Call.properties(of: path) }
        guard let values = reply.first?.stringDictionary else { throw Self.badReply("GetAll") }
        return StackState(StackProperties(values))
    }

    /// Both sides of the history, next first: group ids, names, times and
    /// sizes (never payloads).
    public func history() async throws(UndoKitError) -> (undo: [HistoryItem], redo: [HistoryItem]) {
        let reply = try await bus.call(on: self) { path throws(DBusError) in try Undo1Call.stack(path, .history) }
        guard let sides = HistoryItem.sides(of: reply) else { throw Self.badReply("History") }
        return sides
    }

    /// Registers again with changed options (a new title, declared windows,
    /// a limit); options left nil keep their values. The document stays the
    /// stack's own: another document is another stack (`register`).
    public func update(_ options: StackOptions) async throws(UndoKitError) {
        let registration = pin(options)
        let appId = self.appId
        _ = try await bus.call { _ throws(DBusError) in try Undo1Call.register(appId: appId, options: registration) }
    }

    /// Queues `update(options)` in order with every other call, without waiting.
    func updateLater(_ options: StackOptions) {
        let registration = pin(options)
        let appId = self.appId
        bus.post({ _ throws(DBusError) in try Undo1Call.register(appId: appId, options: registration) }) { _ in }
    }

    /// Keeps `options` (their document pinned to the stack's) for later
    /// registrations, and returns them as `Register` takes them.
    private func pin(_ options: StackOptions) -> RegistrationOptions {
        state.withLock { state in
            var options = options
            options.document = state.options.document
            state.options = options
            return options.registration
        }
    }

    private func simple(_ member: Undo1Call.StackMember) async throws(UndoKitError) {
        _ = try await bus.call(on: self) { path throws(DBusError) in try Undo1Call.stack(path, member) }
    }

    private static func badReply(_ what: String) -> UndoKitError {
        UndoKitError(name: UndoKitError.badReply.name, message: "undod answered \(what) in an unexpected shape.")
    }

    // MARK: undod restarting

    /// The new path each time the stack registers again after undod
    /// restarted (the same path when undod kept it on disk). The stream ends
    /// when the stack goes.
    public func reattachments() -> AsyncStream<String> {
        AsyncStream { continuation in
            let id = state.withLock { state -> Int in
                state.nextObserver += 1
                state.reattached[state.nextObserver] = continuation
                return state.nextObserver
            }
            continuation.onTermination = { [weak self] _ in
                _ = self?.state.withLock { $0.reattached.removeValue(forKey: id) }
            }
        }
    }

    /// How the stack registers again: its options without the first state
    /// tag, which described the document when the app first registered (the
    /// history since has moved it on).
    var reregistration: RegistrationOptions {
        state.withLock { state in
            var registration = state.options.registration
            registration.stateTag = nil
            return registration
        }
    }

    /// undod answered the registration again with `path`.
    func reattached(at path: String) {
        let observers = state.withLock { state -> [AsyncStream<String>.Continuation] in
            state.path = path
            return Array(state.reattached.values)
        }
        for observer in observers { observer.yield(path) }
    }
}
