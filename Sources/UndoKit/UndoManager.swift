import Undo1

/// The `UndoManager` Foundation on Linux lacks, in NSUndoManager's shape,
/// with its history hosted by undod: registrations made during one turn of
/// the main actor form one group (or those between `beginUndoGrouping` and
/// `endUndoGrouping`); undo runs a group's closures in reverse order, and
/// what they register becomes the group's redo (and the redo's, its undo).
///
/// The closures stay in this process; undod keeps an opaque token per group,
/// orders the groups, applies limits and the clean state, and answers the
/// global undo key and `undoctl undo` by calling back here — so titles and
/// `canUndo` follow undos from outside too, and `changes()` reports them.
/// Closures do not survive the process: a group whose closures are gone (a
/// stack adopted after a restart) answers Obsolete, and undod drops it. So
/// a manager's stack is memory-only unless its options say `persist: true`.
@MainActor
public final class UndoManager {
    /// A change of what the undo and redo menu items should say.
    public struct Change: Sendable, Equatable {
        /// What happened.
        public enum Kind: Sendable, Equatable {
            /// A group was registered (it closed and went to undod).
            case registered
            /// A group was undone (here, by the global key, or by undoctl).
            case undone
            /// A group was redone.
            case redone
            /// `removeAllActions`.
            case removedAll
            /// The history was brought in line with undod's (a limit dropped
            /// old groups, a push failed, undod restarted).
            case synchronized
        }
        /// What happened.
        public let kind: Kind
        /// `canUndo` after it.
        public let canUndo: Bool
        /// `canRedo` after it.
        public let canRedo: Bool
        /// `undoActionName` after it.
        public let undoActionName: String
        /// `redoActionName` after it.
        public let redoActionName: String
        /// Whether an undo or redo came from outside this manager (the global
        /// key, `undoctl`, another connection) rather than its `undo()`/`redo()`.
        public let fromOutside: Bool
    }

    /// The client the manager's stack is on.
    public let client: UndoClient
    /// The manager's stack in undod.
    public let stack: UndoStackClient

    /// What undod is told a group without an action name is called (it
    /// needs a name; menus here still say just "Undo").
    public static let unnamedGroupName = "Change"

    /// Registrations outside an explicit group form one group that closes at
    /// the end of the main actor's turn (true, the default); false: each
    /// registration outside an explicit group is a group of its own.
    public var groupsByEvent = true
    /// Most undo groups kept; 0 = the daemon's default (`limits.levels`).
    public var levelsOfUndo: Int = 0 {
        didSet { applyLevels() }
    }
    /// Whether an undo is running its closures now.
    public private(set) var isUndoing = false
    /// Whether a redo is running its closures now.
    public private(set) var isRedoing = false

    /// One group's closures, by token.
    private struct Entry {
        var name: String
        var undo: [@MainActor () -> Void]
        var redo: [@MainActor () -> Void]
    }

    /// The group registrations go to now.
    private struct OpenGroup {
        var name = ""
        var actions: [@MainActor () -> Void] = []
        /// Explicit `beginUndoGrouping` levels open.
        var depth = 0
        /// Whether the end of the main actor's turn closes it.
        var byEvent = false
    }

    private let nonce: UInt64
    private var nextToken: UInt64 = 1
    private var entries: [UInt64: Entry] = [:]
    private var undoTokens: [UInt64] = []
    private var redoTokens: [UInt64] = []
    private var open: OpenGroup?
    /// While an undo or redo runs its closures: what they register, and the group.
    private var applying: (token: UInt64, registered: [@MainActor () -> Void])?
    private var pendingPushes = 0
    /// This manager's own `undo()`/`redo()` calls out now.
    private var ownApplies = 0
    /// Counts every change of the local history, so that an answer from
    /// undod older than a change is not taken for the truth.
    private var epoch = 0
    private var observers: [Int: AsyncStream<Change>.Continuation] = [:]
    private var nextObserver = 0

    /// Registers `appId`'s stack (memory-only unless `options.persist` says
    /// otherwise) and starts serving undod's undo and redo calls.
    public init(client: UndoClient, appId: String, options: StackOptions = StackOptions()) async throws(UndoKitError) {
        var options = options
        if options.persist == nil { options.persist = false }
        self.client = client
        // The handler is in place before undod could call it; it reaches the
        // manager through a box filled once the manager exists.
        let box = ManagerBox()
        stack = try await client.register(appId: appId, options: options) { request in
            try await box.apply(request)
        }
        nonce = UInt64.random(in: 1...UInt64.max)
        box.manager = self
        let reattachments = stack.reattachments()
        Task { [weak self] in
            for await _ in reattachments {
                guard let self else { return }
                await self.synchronize()
            }
        }
    }

    // MARK: Registering

    /// Registers `handler` to run on `target` when the group it joins is
    /// undone (or, while undoing, redone). The target is held weakly: a
    /// target that is gone by then is skipped.
    public func registerUndo<Target: AnyObject>(withTarget target: Target, handler: @escaping @MainActor (Target) -> Void) {
        let action: @MainActor () -> Void = { [weak target] in
            if let target { handler(target) }
        }
        if applying != nil {
            applying?.registered.append(action)
            return
        }
        if !redoTokens.isEmpty {
            // A new change ends the redo side at once, as with NSUndoManager
            // (undod empties its own when the group is pushed).
            epoch += 1
            for dropped in redoTokens { entries[dropped] = nil }
            redoTokens.removeAll()
            post(.synchronized)
        }
        if open == nil {
            open = OpenGroup(byEvent: groupsByEvent)
            if groupsByEvent { closeAtEndOfTurn() }
        }
        open?.actions.append(action)
        if !groupsByEvent, open?.depth == 0 { closeGroup() }
    }

    /// Names the group being built (while undoing: the redo's name; while
    /// redoing: the undo's). Call it in the turn that registers the group.
    public func setActionName(_ name: String) {
        if let applying {
            entries[applying.token]?.name = name
        } else if open != nil {
            open?.name = name
        } else if let top = undoTokens.last {
            entries[top]?.name = name
            post(.registered)
        }
    }

    /// Opens a group (nested groups join the outermost one).
    public func beginUndoGrouping() {
        if open == nil { open = OpenGroup() }
        open?.depth += 1
    }

    /// Closes the innermost open group; the outermost one's close registers it.
    public func endUndoGrouping() {
        guard let group = open, group.depth > 0 else { return }
        open?.depth -= 1
        if group.depth == 1, !group.byEvent { closeGroup() }
    }

    private func closeAtEndOfTurn() {
        Task { @MainActor [weak self] in
            guard let self, let group = self.open, group.byEvent, group.depth == 0 else { return }
            self.closeGroup()
        }
    }

    /// Sends the open group to undod (an empty one is dropped).
    private func closeGroup() {
        guard let group = open else { return }
        open = nil
        guard !group.actions.isEmpty else { return }
        let token = nextToken
        nextToken += 1
        epoch += 1
        entries[token] = Entry(name: group.name, undo: group.actions, redo: [])
        for dropped in redoTokens { entries[dropped] = nil }
        redoTokens.removeAll()
        undoTokens.append(token)
        if levelsOfUndo > 0, undoTokens.count > levelsOfUndo { dropOldest(undoTokens.count - levelsOfUndo) }
        pendingPushes += 1
        let payload = self.payload(token)
        stack.pushLater(group.name.isEmpty ? Self.unnamedGroupName : group.name,
                        actions: [UndoAction(undo: payload, redo: payload)]) { [weak self] result in
            Task { @MainActor in self?.pushed(token, result) }
        }
        post(.registered)
    }

    private func pushed(_ token: UInt64, _ result: Result<UInt64, UndoKitError>) {
        pendingPushes -= 1
        if case .failure = result {
            // undod does not hold it: nothing could undo it.
            epoch += 1
            entries[token] = nil
            undoTokens.removeAll { $0 == token }
            post(.synchronized)
        }
        if pendingPushes == 0 { Task { await synchronize() } }
    }

    // MARK: Undo and redo

    /// Whether there is something to undo.
    public var canUndo: Bool { !undoTokens.isEmpty || !(open?.actions.isEmpty ?? true) }
    /// Whether there is something to redo.
    public var canRedo: Bool { !redoTokens.isEmpty }
    /// The next undo's name (`""` when unnamed or none).
    public var undoActionName: String {
        if let open, !open.actions.isEmpty { return open.name }
        return undoTokens.last.flatMap { entries[$0]?.name } ?? ""
    }
    /// The next redo's name.
    public var redoActionName: String { redoTokens.last.flatMap { entries[$0]?.name } ?? "" }
    /// "Undo Typing", or "Undo" when unnamed.
    public var undoMenuItemTitle: String { undoActionName.isEmpty ? "Undo" : "Undo \(undoActionName)" }
    /// "Redo Typing", or "Redo" when unnamed.
    public var redoMenuItemTitle: String { redoActionName.isEmpty ? "Redo" : "Redo \(redoActionName)" }

    /// Undoes the last group (closing an open one first): undod calls back
    /// with its token, and its closures run here.
    public func undo() async throws(UndoKitError) {
        closeAllGroups()
        ownApplies += 1
        defer { ownApplies -= 1 }
        do {
            _ = try await stack.undo()
        } catch {
            await synchronize()
            throw error
        }
    }

    /// Redoes the last undone group.
    public func redo() async throws(UndoKitError) {
        closeAllGroups()
        ownApplies += 1
        defer { ownApplies -= 1 }
        do {
            _ = try await stack.redo()
        } catch {
            await synchronize()
            throw error
        }
    }

    /// Forgets every group, here and in undod.
    public func removeAllActions() async throws(UndoKitError) {
        open = nil
        epoch += 1
        entries.removeAll()
        undoTokens.removeAll()
        redoTokens.removeAll()
        post(.removedAll)
        try await stack.clear()
    }

    private func closeAllGroups() {
        if open != nil {
            open?.depth = 0
            open?.byEvent = false
            closeGroup()
        }
    }

    /// undod's `Apply`: runs the group's closures, last registered first,
    /// and keeps what they register as the other direction's closures.
    fileprivate func apply(_ request: ApplyRequest) throws {
        guard request.payloads.count == 1, let token = token(in: request.payloads[0]), let entry = entries[token] else {
            throw UndoKitError.obsolete
        }
        let undoing = request.direction == .undo
        epoch += 1
        applying = (token, [])
        if undoing { isUndoing = true } else { isRedoing = true }
        for action in (undoing ? entry.undo : entry.redo).reversed() { action() }
        let registered = applying?.registered ?? []
        applying = nil
        isUndoing = false
        isRedoing = false
        if undoing { entries[token]?.redo = registered } else { entries[token]?.undo = registered }
        if undoing {
            undoTokens.removeAll { $0 == token }
            redoTokens.append(token)
        } else {
            redoTokens.removeAll { $0 == token }
            undoTokens.append(token)
        }
        post(undoing ? .undone : .redone, fromOutside: ownApplies == 0)
    }

    // MARK: Keeping in line with undod

    /// Reads the stack's depths and drops, from the bottom, what undod no
    /// longer holds (a limit dropped it, it restarted without the stack) —
    /// unless the history changed here meanwhile.
    private func synchronize() async {
        let before = epoch
        guard pendingPushes == 0, let state = try? await stack.state(), epoch == before, pendingPushes == 0 else { return }
        var changed = false
        if undoTokens.count > Int(state.undoDepth) {
            dropOldest(undoTokens.count - Int(state.undoDepth))
            changed = true
        }
        if redoTokens.count > Int(state.redoDepth) {
            for token in redoTokens.prefix(redoTokens.count - Int(state.redoDepth)) { entries[token] = nil }
            redoTokens.removeFirst(redoTokens.count - Int(state.redoDepth))
            changed = true
        }
        if changed { post(.synchronized) }
    }

    private func dropOldest(_ count: Int) {
        for token in undoTokens.prefix(count) { entries[token] = nil }
        undoTokens.removeFirst(min(count, undoTokens.count))
    }

    private func applyLevels() {
        if levelsOfUndo > 0, undoTokens.count > levelsOfUndo {
            epoch += 1
            dropOldest(undoTokens.count - levelsOfUndo)
            post(.synchronized)
        }
        // In order with the pushes and undos that follow.
        var options = stack.options
        options.limit = UInt32(clamping: max(0, levelsOfUndo))
        stack.updateLater(options)
    }

    // MARK: Tokens

    /// The payload that names group `token` of this manager.
    private func payload(_ token: UInt64) -> [UInt8] {
        Self.bytes(nonce) + Self.bytes(token)
    }

    /// The token in a payload of this manager (another process's, or an
    /// earlier run's, is not).
    private func token(in payload: [UInt8]) -> UInt64? {
        guard payload.count == 16, Self.number(payload[0..<8]) == nonce else { return nil }
        return Self.number(payload[8..<16])
    }

    private static func bytes(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }

    private static func number(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    // MARK: Changes

    /// Every change of what the undo and redo items should say, from now on,
    /// for a menu to follow (each call makes a stream of its own).
    public func changes() -> AsyncStream<Change> {
        AsyncStream { continuation in
            nextObserver += 1
            let id = nextObserver
            observers[id] = continuation
            continuation.onTermination = { [weak self] _ in
                Task { @MainActor in self?.observers[id] = nil }
            }
        }
    }

    private func post(_ kind: Change.Kind, fromOutside: Bool = false) {
        let change = Change(kind: kind, canUndo: canUndo, canRedo: canRedo, undoActionName: undoActionName,
                            redoActionName: redoActionName, fromOutside: fromOutside)
        for observer in observers.values { observer.yield(change) }
    }
}

/// Where undod's calls find the manager: filled once the manager exists
/// (the stack's handler is in place before), emptied as it goes.
@MainActor
private final class ManagerBox {
    weak var manager: UndoManager?

    /// Applies `request` on the manager, or answers Obsolete without one.
    func apply(_ request: ApplyRequest) throws {
        guard let manager else { throw UndoKitError.obsolete }
        try manager.apply(request)
    }
}
