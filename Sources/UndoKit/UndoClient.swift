import DBus
import Undo1
import Undo1Wire
import UndoCore

/// One connection to undod on the session bus (or `address`). Its own thread
/// runs the bus; every method may be called from any task. When undod is not
/// running, calls fail with `UndoKitError.daemonUnavailable`; when it starts
/// (or restarts), every stack still open registers again by itself.
public final class UndoClient: Sendable {
    let bus: BusThread

    /// Connects to the bus at `address`, or to the session bus. Throws
    /// `daemonUnavailable` when there is no bus; undod itself need not run yet.
    public init(address: String? = nil) throws(UndoKitError) {
        bus = try BusThread(address: address)
    }

    deinit { bus.close() }

    /// Opens (or adopts) this app's stack for `options.document` and owns it.
    public func register(appId: String, options: StackOptions = StackOptions()) async throws(UndoKitError) -> UndoStackClient {
        try await register(appId: appId, options: options, handler: nil)
    }

    /// Like `register(appId:options:)`, with the apply handler in place
    /// before undod can call it (an adopted stack may be undone at once).
    public func register(appId: String, options: StackOptions = StackOptions(),
                         applyHandler: @escaping @Sendable (ApplyRequest) async throws -> Void) async throws(UndoKitError) -> UndoStackClient {
        try await register(appId: appId, options: options, handler: .task(applyHandler))
    }

    private func register(appId: String, options: StackOptions,
                          handler: UndoStackClient.Handler?) async throws(UndoKitError) -> UndoStackClient {
        let registration = options.registration
        let gate = SendGate()
        let bus = self.bus
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<UndoStackClient, UndoKitError>, Never>) in
                bus.post(gate: gate, { _ throws(DBusError) in
                    try Undo1Call.register(appId: appId, options: registration)
                }) { [self] answer in
                    // On the bus thread, as the answer arrives: the stack is
                    // tracked before any Apply for it can be dispatched.
                    continuation.resume(returning: answer.flatMap { reply in
                        guard let path = reply.first?.string else {
                            return .failure(UndoKitError(name: UndoKitError.badReply.name,
                                                         message: "undod answered Register without a stack."))
                        }
                        let stack = UndoStackClient(client: self, appId: appId, options: options, path: path,
                                                    handler: handler)
                        guard bus.track(stack) else {
                            stack.forgetWithoutClosing()
                            return .failure(UndoKitError(name: UndoKitError.alreadyOwned.name, message:
                                "This UndoClient holds the stack of \(appId) for that document already: use it, "
                                + "or update(_:) to change its options."))
                        }
                        return .success(stack)
                    })
                }
            }
        } onCancel: {
            gate.cancel()
        }
        return try result.get()
    }

    /// Undo on the focused stack (`Manager.UndoFocused`), as the global key does.
    public func undoFocused() async throws(UndoKitError) -> AppliedGroup {
        try await applyFocused(.undo)
    }

    /// Redo on the focused stack (`Manager.RedoFocused`).
    public func redoFocused() async throws(UndoKitError) -> AppliedGroup {
        try await applyFocused(.redo)
    }

    private func applyFocused(_ direction: UndoDirection) async throws(UndoKitError) -> AppliedGroup {
        let wire = direction.wire
        let reply = try await bus.call(timeout: BusThread.applyTimeoutMilliseconds) { _ throws(DBusError) in
            try Undo1Call.applyFocused(wire)
        }
        guard let applied = AppliedReply(reply) else {
            throw UndoKitError(name: UndoKitError.badReply.name, message: "undod answered an undo in an unexpected shape.")
        }
        return AppliedGroup(stack: applied.stack, group: applied.group, name: applied.name)
    }

    /// Whether undod runs now (as this client last saw it).
    public var isDaemonRunning: Bool { bus.isDaemonRunning }

    /// Whether undod runs: now, then at every change (it starts, stops,
    /// restarts). An app without undod keeps working and greys out its undo
    /// items until this says true.
    public func daemonAvailability() -> AsyncStream<Bool> { bus.availability() }

    /// Leaves the bus: what was queued is sent first, and the answers to
    /// calls already sent are awaited for up to 2 s (so that undod has read
    /// them all); calls still waiting then fail with `closed`, calls made
    /// after `close` fail with `closed` at once. Stacks are detached (kept by
    /// undod for a later `register`).
    public func close() { bus.close() }
}
