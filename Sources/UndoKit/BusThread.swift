import DBus
import ProcessEnvironment
import Dispatch
import Foundation
import Locking
import Loop
import Undo1
import Undo1Wire
import UndoCore

/// The thread that runs one `UndoClient`'s bus connection: its own
/// `EventLoop`, the connection, the exported `org.undod.Undo1.Client`
/// object, and what follows undod's comings and goings. Calls from any task
/// are queued onto the loop in the order they are made, so pushes keep their
/// order and no caller's thread ever waits on the bus. While a stack
/// registers again (undod restarted), its calls wait, and then go to the
/// stack's new path.
final class BusThread: @unchecked Sendable {
    // @unchecked: `handle` and `shared` may be used from any thread (the one
    // is Sendable, the other behind its mutex); every other property, the
    // loop included, is touched only on the loop's thread, inside `perform`
    // or the loop's own callbacks.

    /// The loop the connection runs on; it belongs to the bus thread.
    let loop = EventLoop()
    /// How other threads hand the loop work.
    private let handle: EventLoop.Handle
    private var connection: Connection?
    private var objects: ObjectServer?
    /// undod's unique name while it runs: only it may call `Apply`.
    private var daemon: String?
    /// The undod the stacks last registered with: a new one means undod
    /// restarted, and they register again.
    private var registeredWith: String?
    private var stacks: [ObjectIdentifier: Weak] = [:]
    /// Stacks registering again, with the calls that wait for their new path.
    private var held: [ObjectIdentifier: [() -> Void]] = [:]
    /// Calls that reached a restarted undod before this client heard of it,
    /// sent again (before `held`'s) once the stack has registered there.
    private var resend: [ObjectIdentifier: [() -> Void]] = [:]
    private var applies: [Int: MethodCall] = [:]
    private var outstanding: [Int: @Sendable (Result<[DBusValue], UndoKitError>) -> Void] = [:]
    private var nextID = 0
    /// While `close` waits for the answers to what was sent: the error the
    /// calls still waiting at the end get, and the timer that ends the wait.
    private var closing: (error: UndoKitError, timer: EventLoop.Token?)?
    private let shared = Lock(Shared())

    /// What other threads may ask: whether the client is closed, whether
    /// undod runs, and who follows that.
    private struct Shared {
        var closed = false
        var daemonRunning = false
        var watchers: [Int: AsyncStream<Bool>.Continuation] = [:]
        var nextWatcher = 0
    }

    /// A stack known weakly: the app owns its `UndoStackClient`.
    private struct Weak {
        weak var stack: UndoStackClient?
    }

    /// How long an undo or redo may take: undod bounds the app's `Apply` by
    /// its own `apply.timeout_ms` per queued request; this only ends a hung daemon.
    static let applyTimeoutMilliseconds = 120_000
    /// How long any other call may take.
    static let callTimeoutMilliseconds = 25_000
    /// How long `close` waits for the answers to calls already sent.
    static let closeDrainMilliseconds = 2_000

    /// Connects on a new thread to the bus at `address` (nil: the session
    /// bus), learns whether undod runs, and returns once that is known.
    init(address: String?) throws(UndoKitError) {
        handle = loop.handle
        let ready = DispatchSemaphore(value: 0)
        let outcome = Lock<UndoKitError?>(nil)
        let thread = Thread { [self] in
            do throws(DBusError) {
                let connection = if let address {
                    try Connection(address: address, loop: loop)
                } else {
                    try Connection.session(loop: loop, environment: .current())
                }
                setUp(connection)
                ready.signal()
                loop.run()
                tearDown()
            } catch {
                outcome.withLock {
                    $0 = UndoKitError(name: UndoKitError.daemonUnavailable.name,
                                      message: "Cannot reach the bus: \(error.message)")
                }
                ready.signal()
            }
        }
        thread.name = "UndoKit bus"
        thread.start()
        ready.wait()
        if let error = outcome.withLock({ $0 }) { throw error }
    }

    // MARK: Any thread

    /// Whether undod runs (owns its name), as last seen.
    var isDaemonRunning: Bool { shared.withLock { $0.daemonRunning } }

    /// Calls `build`'s method and waits for the answer. Cancelled before it
    /// is sent, nothing is sent and `cancelled` is thrown; once sent, the
    /// answer is awaited (undod does what it was asked either way). With
    /// `stack`, the call goes to the stack's path at the time it is sent.
    func call(on stack: UndoStackClient? = nil, timeout: Int = callTimeoutMilliseconds,
              _ build: @escaping @Sendable (_ path: String) throws(DBusError) -> Message) async throws(UndoKitError) -> [DBusValue] {
        let gate = SendGate()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<[DBusValue], UndoKitError>, Never>) in
                post(on: stack, timeout: timeout, gate: gate, build) { continuation.resume(returning: $0) }
            }
        } onCancel: {
            gate.cancel()
        }
        return try result.get()
    }

    /// Queues `build`'s method to be sent in order, and `done` to be called
    /// with its answer — on the bus thread, or at once on the caller's thread
    /// when the client is closed. Never blocks.
    func post(on stack: UndoStackClient? = nil, timeout: Int = callTimeoutMilliseconds, gate: SendGate? = nil,
              _ build: @escaping @Sendable (_ path: String) throws(DBusError) -> Message,
              done: @escaping @Sendable (Result<[DBusValue], UndoKitError>) -> Void) {
        // Under the mutex, so that nothing is queued behind `close`'s last turn.
        let queued = shared.withLock { shared -> Bool in
            guard !shared.closed else { return false }
            handle.perform { [self] in
                func send() {
                    guard gate?.mayBeSent() ?? true else { return done(.failure(.cancelled)) }
                    // A stack's call answered by another undod than the one
                    // the stack registered with went to an undod that
                    // restarted before this client heard of it: it is sent
                    // again once the stack has registered there.
                    let sentTo = registeredWith
                    let rerouted: ((DBusError) -> Bool)? = stack.map { stack in
                        { [self] error in resendAfterRestart(stack, error, sentTo: sentTo, send) }
                    }
                    self.send({ () throws(DBusError) in try build(stack?.path ?? "") }, timeout: timeout,
                              rerouted: rerouted, done)
                }
                if let stack, held[ObjectIdentifier(stack)] != nil {
                    held[ObjectIdentifier(stack)]?.append(send)
                } else {
                    send()
                }
            }
            return true
        }
        if !queued { done(.failure(.closed)) }
    }

    /// Runs `body` on the bus thread, in order with the calls (nothing once closed).
    func perform(_ body: @escaping @Sendable (BusThread) -> Void) {
        shared.withLock { shared in
            guard !shared.closed else { return }
            handle.perform { [self] in body(self) }
        }
    }

    /// A stream of whether undod runs: now, then at every change; it ends
    /// when the client closes.
    func availability() -> AsyncStream<Bool> {
        AsyncStream { continuation in
            let id = shared.withLock { shared -> Int? in
                guard !shared.closed else { return nil }
                shared.nextWatcher += 1
                shared.watchers[shared.nextWatcher] = continuation
                continuation.yield(shared.daemonRunning)
                return shared.nextWatcher
            }
            guard let id else { return continuation.finish() }
            continuation.onTermination = { [weak self] _ in
                _ = self?.shared.withLock { $0.watchers.removeValue(forKey: id) }
            }
        }
    }

    /// Ends the connection after writing out what was sent: calls still
    /// waiting for an answer fail with `closed` (undod may have done them).
    func close() {
        end(with: .closed, flushing: true)
    }

    private func end(with error: UndoKitError, flushing: Bool) {
        let watchers = shared.withLock { shared -> [AsyncStream<Bool>.Continuation]? in
            guard !shared.closed else { return nil }
            shared.closed = true
            handle.perform { [self] in
                guard flushing, let connection, connection.isConnected, !outstanding.isEmpty else {
                    return finishClosing(error)
                }
                // Everything is written; now read the answers. A socket
                // closed with answers unread in it resets the bus's end, and
                // the bus drops what it has not read from it yet: the last
                // pushes would be lost.
                connection.flush()
                let timer = loop.schedule(afterMilliseconds: Self.closeDrainMilliseconds) { [self] in
                    closing?.timer = nil
                    finishClosing(error)
                }
                closing = (error, timer)
            }
            defer { shared.watchers.removeAll() }
            return Array(shared.watchers.values)
        }
        for watcher in watchers ?? [] { watcher.finish() }
    }

    // MARK: The bus thread

    /// Tracks `stack`, to route its `Apply` calls and register it again
    /// when undod restarts; false when a live stack of this client has that
    /// path already (registered twice).
    func track(_ stack: UndoStackClient) -> Bool {
        stacks = stacks.filter { $0.value.stack != nil }
        guard !stacks.values.contains(where: { $0.stack?.path == stack.path }) else { return false }
        stacks[ObjectIdentifier(stack)] = Weak(stack: stack)
        return true
    }

    /// Forgets `stack` (closed).
    func forget(_ stack: UndoStackClient) {
        stacks[ObjectIdentifier(stack)] = nil
    }

    /// Sends `build`'s message; `done` gets the answer, unless `rerouted`
    /// takes the error (the call will be sent again).
    private func send(_ build: () throws(DBusError) -> Message, timeout: Int,
                      rerouted: ((DBusError) -> Bool)? = nil,
                      _ done: @escaping @Sendable (Result<[DBusValue], UndoKitError>) -> Void) {
        guard let connection, connection.isConnected else { return done(.failure(.daemonUnavailable)) }
        let message: Message
        do { message = try build() } catch { return done(.failure(UndoKitError(error))) }
        nextID += 1
        let id = nextID
        outstanding[id] = done
        connection.call(message, timeoutMilliseconds: timeout) { [self] answer in
            guard let done = outstanding.removeValue(forKey: id) else { return }
            if case .failure(let error) = answer, closing == nil, rerouted?(error) == true { return }
            done(answer.map(\.arguments).mapError(UndoKitError.init))
            if let closing, outstanding.isEmpty { finishClosing(closing.error) }
        }
    }

    /// Whether `error` came from an undod other than `sentTo`, the one the
    /// stack had registered with when the call left: then undod restarted
    /// (this client may not have heard yet), and `send` waits for the stack
    /// to register with the new one, ahead of the calls made since.
    private func resendAfterRestart(_ stack: UndoStackClient, _ error: DBusError, sentTo: String?,
                                    _ send: @escaping () -> Void) -> Bool {
        guard let sender = error.sender, sender.hasPrefix(":"), let sentTo, sender != sentTo else { return false }
        if sender != registeredWith { daemonChanged(sender) }
        let id = ObjectIdentifier(stack)
        guard held[id] != nil else { return false }
        resend[id, default: []].append(send)
        return true
    }

    /// Fails what still waits and ends the bus thread.
    private func finishClosing(_ error: UndoKitError) {
        if let timer = closing?.timer { loop.remove(timer) }
        closing = nil
        failOutstanding(error)
        loop.stop()
    }

    private func failOutstanding(_ error: UndoKitError) {
        let waiting = outstanding.values
        outstanding.removeAll()
        for done in waiting { done(.failure(error)) }
        for call in applies.values { call.fail(DBusError(name: error.name, message: error.message)) }
        applies.removeAll()
        let waitingOnPaths = resend.values.flatMap { $0 } + held.values.flatMap { $0 }
        resend.removeAll()
        held.removeAll()
        for send in waitingOnPaths { send() }
    }

    private func setUp(_ connection: Connection) {
        self.connection = connection
        let objects = ObjectServer(connection: connection)
        objects.export(path: Undo1.clientPath, interfaces: [
            Undo1Interfaces.client.binding(methods: ["Apply": { [unowned self] call in self.apply(call) }], properties: [:]),
        ])
        self.objects = objects
        connection.subscribe(.nameOwnerChanged(name: Undo1.busName)) { [unowned self] message in
            let names = message.arguments.compactMap(\.string)
            guard names.count == 3 else { return }
            daemonChanged(names[2].isEmpty ? nil : names[2])
        }
        connection.onDisconnect = { [unowned self] in
            daemonChanged(nil)
            end(with: UndoKitError(name: UndoKitError.daemonUnavailable.name,
                                   message: "The bus went away; this UndoClient is closed."), flushing: false)
        }
        // Known before `init` returns: whether undod runs now.
        if let message = try? Undo1Call.nameOwner(),
           let reply = try? connection.callAndWait(message, timeoutMilliseconds: Self.callTimeoutMilliseconds),
           let owner = reply.arguments.first?.string {
            daemonChanged(owner)
        }
    }

    private func tearDown() {
        connection?.close()
        connection = nil
        objects = nil
    }

    /// undod came, went or restarted: say so, and on its return register
    /// every live stack again (adopting its history where it kept it).
    private func daemonChanged(_ owner: String?) {
        daemon = owner
        let watchers = shared.withLock { shared -> [AsyncStream<Bool>.Continuation] in
            let changed = shared.daemonRunning != (owner != nil)
            shared.daemonRunning = owner != nil
            return changed ? Array(shared.watchers.values) : []
        }
        for watcher in watchers { watcher.yield(owner != nil) }
        guard let owner, owner != registeredWith else { return }
        let restarted = registeredWith != nil
        registeredWith = owner
        guard restarted else { return }
        stacks = stacks.filter { $0.value.stack != nil }
        for entry in stacks.values {
            if let stack = entry.stack { registerAgain(stack) }
        }
    }

    /// Registers `stack` again; its calls wait meanwhile, and then go to the
    /// path undod answers with.
    private func registerAgain(_ stack: UndoStackClient) {
        let id = ObjectIdentifier(stack)
        guard held[id] == nil else { return }
        held[id] = []
        let registration = stack.reregistration
        let appId = stack.appId
        send({ () throws(DBusError) in try Undo1Call.register(appId: appId, options: registration) },
             timeout: Self.callTimeoutMilliseconds) { [weak stack] result in
            // On the bus thread: the reply handler.
            if let stack, case .success(let reply) = result, let path = reply.first?.string {
                stack.reattached(at: path)
            }
            // Calls that reached the new undod too early go first, in the order they left.
            let waiting = (self.resend.removeValue(forKey: id) ?? []) + (self.held.removeValue(forKey: id) ?? [])
            for send in waiting { send() }
        }
    }

    /// `Client.Apply` from undod: routed to the stack's handler, answered
    /// when it is done.
    private func apply(_ call: MethodCall) {
        guard let daemon, call.sender == daemon else {
            return call.fail(DBusError(name: UndoKitError.accessDenied.name, message: UndoKitError.accessDenied.message))
        }
        guard let arguments = ApplyArguments(call.arguments) else {
            return call.fail(.invalidArgs("Apply takes (o stack, t group, s direction, aay payloads)."))
        }
        guard let stack = stacks.values.lazy.compactMap(\.stack).first(where: { $0.path == arguments.stack }) else {
            return call.fail(DBusError(name: UndoKitError.noSuchStackHere.name,
                                       message: "This application holds no stack at \(arguments.stack)."))
        }
        nextID += 1
        let id = nextID
        applies[id] = call
        let request = ApplyRequest(direction: arguments.direction == .undo ? .undo : .redo, group: arguments.group,
                                   payloads: arguments.payloads, stack: arguments.stack)
        stack.deliver(request) { [weak self] outcome in
            self?.perform { bus in bus.answer(id, outcome) }
        }
    }

    private func answer(_ id: Int, _ outcome: Result<Void, UndoKitError>) {
        guard let call = applies.removeValue(forKey: id) else { return }
        switch outcome {
        case .success: call.reply()
        case .failure(let error): call.fail(DBusError(name: error.name, message: error.message))
        }
    }
}
