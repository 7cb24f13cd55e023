import DBus
import Dispatch
import Synchronization
import Undo1

/// One registered stack; the app owns it. Pushes from one task arrive in
/// the order they were made; none blocks the caller's thread.
public final class UndoStackClient: Sendable {
    private let bus: BusThread
    /// The app id it was registered with.
    public let appId: String
    private let state: Mutex<State>

    /// What changes: where the stack is, how it registers, who applies.
    private struct State {
        var path: String
        var options: StackOptions
        var handler: Handler?
        var reattached: [Int: AsyncStream<String>.Continuation] = [:]
        var nextObserver = 0
    }

    /// Where `Apply` calls land.
    enum Handler {
        /// An async function, on whatever actor it is isolated to.
        case task(@Sendable (ApplyRequest) async throws -> Void)
        /// A function on a dispatch queue the app chose.
        case queue(DispatchQueue, @Sendable (ApplyRequest) throws -> Void)
    }

    init(bus: BusThread, appId: String, options: StackOptions, path: String, handler: Handler? = nil) {
        self.bus = bus
        self.appId = appId
        state = Mutex(State(path: path, options: options, handler: handler))
    }

    /// The options it registers with (again, after undod restarted).
    public var options: StackOptions { state.withLock { $0.options } }

    /// The stack's object path, `/org/undod/Undo1/stack/<n>` (a new one
    /// when undod restarted without keeping the stack).
    public var path: String { state.withLock { $0.path } }

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
            done(.failure(UndoKitError(name: UndoKitError.prefix + "HandlerFailed", message: "\(error)")))
        }
        switch state.withLock({ $0.handler }) {
        case nil:
            done(.failure(UndoKitError(name: UndoKitError.prefix + "NoHandler",
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
        try await push(name, actions: actions, hints: PushHints(mergeKey: mergeKey))
    }

    /// Records a group of several actions with every hint a push takes.
    @discardableResult
    public func push(_ name: String, actions: [UndoAction], hints: PushHints) async throws(UndoKitError) -> UInt64 {
        let reply = try await bus.call(message(name, actions: actions, hints: hints))
        return reply.first?.uint64 ?? 0
    }

    /// Queues a push without waiting for it, for code that cannot await (a
    /// UI callback): sent in order with every other call of this client,
    /// at once; `done`, if given, is called on UndoKit's bus thread with the
    /// group id or the error.
    public func pushLater(_ name: String, actions: [UndoAction], hints: PushHints = PushHints(),
                          done: (@Sendable (Result<UInt64, UndoKitError>) -> Void)? = nil) {
        bus.post(message(name, actions: actions, hints: hints)) { result in
            done?(result.map { $0.first?.uint64 ?? 0 })
        }
    }

    private func message(_ name: String, actions: [UndoAction], hints: PushHints) -> @Sendable () throws(DBusError) -> Message {
        let path = self.path
        let options = hints.options
        return { () throws(DBusError) in
            if actions.count == 1, let action = actions.first {
                return try Undo1Call.push(path, name: name, undo: action.undo, redo: action.redo, options: options)
            }
            return try Undo1Call.pushGroup(path, name: name, actions: actions.map { ($0.undo, $0.redo) }, options: options)
        }
    }

    // MARK: Undo, redo and the rest

    /// Undoes the top group: undod calls this app's apply handler with its
    /// undo payloads, and answers once it succeeded.
    public func undo() async throws(UndoKitError) -> AppliedGroup { try await apply(.undo) }

    /// Redoes the top redo group.
    public func redo() async throws(UndoKitError) -> AppliedGroup { try await apply(.redo) }

    private func apply(_ direction: UndoDirection) async throws(UndoKitError) -> AppliedGroup {
        let path = self.path
        let wire = direction.wire
        let reply = try await bus.call(timeout: BusThread.applyTimeoutMilliseconds) { () throws(DBusError) in
            try Undo1Call.apply(wire, on: path)
        }
        let applied = AppliedReply(reply, stack: path) ?? AppliedReply(stack: path, group: 0, name: "")
        return AppliedGroup(stack: applied.stack, group: applied.group, name: applied.name)
    }

    /// Marks the present state as clean (saved).
    public func setClean() async throws(UndoKitError) { try await simple(.setClean) }

    /// Tells undod this app has the user's focus (call it when a window of
    /// the app is activated: where undod cannot see windows, it is how the
    /// global key finds the app).
    public func activate() async throws(UndoKitError) { try await simple(.activate) }

    /// Drops the whole history.
    public func clear() async throws(UndoKitError) { try await simple(.clear) }

    /// Gives the stack up: `discard` deletes it; otherwise undod keeps it for
    /// a later `register` to adopt.
    public func close(discard: Bool) async throws(UndoKitError) {
        let path = self.path
        _ = try await bus.call { () throws(DBusError) in try Undo1Call.close(path, discard: discard) }
        bus.perform { [self] in $0.forget(self) }
    }

    /// The stack's properties, read now.
    public func state() async throws(UndoKitError) -> StackState {
        let path = self.path
        let reply = try await bus.call { () throws(DBusError) in try Undo1Call.properties(of: path) }
        return StackState(StackProperties(reply.first?.stringDictionary ?? [:]))
    }

    /// Registers again with changed options (a new title, declared windows,
    /// a limit); options left nil keep their values.
    public func update(_ options: StackOptions) async throws(UndoKitError) {
        state.withLock { $0.options = options }
        let appId = self.appId
        let registration = options.registration
        _ = try await bus.call { () throws(DBusError) in try Undo1Call.register(appId: appId, options: registration) }
    }

    /// Queues `update(options)` in order with every other call, without waiting.
    func updateLater(_ options: StackOptions) {
        state.withLock { $0.options = options }
        let appId = self.appId
        let registration = options.registration
        bus.post({ () throws(DBusError) in try Undo1Call.register(appId: appId, options: registration) }) { _ in }
    }

    private func simple(_ member: Undo1Call.StackMember) async throws(UndoKitError) {
        let path = self.path
        _ = try await bus.call { () throws(DBusError) in try Undo1Call.stack(path, member) }
    }

    // MARK: undod restarting

    /// The new path each time the stack registers again after undod
    /// restarted (the same path when undod kept it on disk).
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

    /// Registers again (undod restarted), adopting the stack it kept. The
    /// state tag is left out: it described the document when the app first
    /// registered, and the history since has moved it on.
    func registerAgain() {
        let appId = self.appId
        let registration = state.withLock { state in
            var registration = state.options.registration
            registration.stateTag = nil
            return registration
        }
        bus.post({ () throws(DBusError) in try Undo1Call.register(appId: appId, options: registration) }) {
            [weak self] result in
            guard let self, case .success(let reply) = result, let path = reply.first?.string else { return }
            let observers = state.withLock { state -> [AsyncStream<String>.Continuation] in
                state.path = path
                return Array(state.reattached.values)
            }
            for observer in observers { observer.yield(path) }
        }
    }
}
