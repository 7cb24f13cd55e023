import Undo1
import UndoCore

/// The `UndoManager` Foundation on Linux lacks, in NSUndoManager's shape,
/// with its history hosted by undod: registrations made during one turn of
/// the main actor form one group (explicit `beginUndoGrouping` /
/// `endUndoGrouping` pairs in that turn nest inside it); undo runs a group's
/// closures in reverse order, and what they register becomes the group's
/// redo (and the redo's, its undo).
///
/// The closures stay in this process; undod keeps an opaque token per group,
/// orders the groups, applies limits and the clean state, and answers the
/// global undo key and `undoctl undo` by calling back here — so titles and
/// `canUndo` follow undos from outside too, and `changes()` reports them.
/// Closures do not survive the process: the manager's stack is memory-only
/// unless its options say `persist: true`, and groups it finds there from an
/// earlier run are cleared.
@MainActor
public final class UndoManager {
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
    /// Setting it registers the stack again with the new limit (which, as
    /// every `Register`, makes it the focused stack under `recent`).
    public var levelsOfUndo: Int = 0 {
        didSet { applyLevels() }
    }
    /// Whether an undo is running its closures now.
    public private(set) var isUndoing = false
    /// Whether a redo is running its closures now.
    public private(set) var isRedoing = false
    /// How many explicit groups are open (0: none).
    public var groupingLevel: Int { open?.depth ?? 0 }
    /// Whether registrations are recorded (see `disableUndoRegistration`).
    public var isUndoRegistrationEnabled: Bool { disabled == 0 }

    let tokens: GroupTokens
    private var nextToken: UInt64 = 1
    /// The groups kept here, with their closures.
    var groups = LocalGroups()
    /// The group registrations go to now.
    private var open: OpenGroup?
    /// While an undo or redo runs its closures: what they register, and the group.
    private var applying: (token: UInt64, registered: [@MainActor () -> Void])?
    /// Groups closed here and not yet answered by undod.
    var outbox = GroupOutbox()
    /// This manager's own `undo()`/`redo()` calls out now.
    private var ownApplies = 0
    private var disabled = 0
    /// Counts every change of the local history, so that an answer from
    /// undod older than a change is not taken for the truth.
    var epoch = 0
    /// The streams `changes()` made.
    private let observers = ChangeStreams()

    /// How long a push refused as Busy (an undo being applied) is retried.
    static let busyRetryMilliseconds = 25
    /// How many times, at most.
    static let busyRetries = 400

    /// Registers `appId`'s stack (memory-only unless `options.persist` says
    /// otherwise), clears what an earlier run left in it (its closures are
    /// gone), and starts serving undod's undo and redo calls.
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
        stack.discardWhenDropped = true
        tokens = GroupTokens(nonce: UInt64.random(in: 1...UInt64.max))
        let left = try await stack.state()
        if left.undoDepth > 0 || left.redoDepth > 0 { try await stack.clear() }
        box.manager = self
        let reattachments = stack.reattachments()
        Task { [weak self] in
            for await _ in reattachments {
                guard let self else { return }
                await self.synchronize()
            }
        }
    }

    isolated deinit {
        observers.finishAll()
        for waiter in outbox.drained { waiter.resume() }
    }

    /// Gives the stack up for good (nobody else could apply its groups) and
    /// ends `changes()`.
    public func close() async throws(UndoKitError) {
        open = nil
        await sendAllNow()
        observers.finishAll()
        try await stack.close(discard: true)
    }

    // MARK: Registering

    /// Registers `handler` to run on `target` when the group it joins is
    /// undone (or, while undoing, redone). The target is held weakly: a
    /// target that is gone by then is skipped.
    public func registerUndo<Target: AnyObject>(withTarget target: Target, handler: @escaping @MainActor (Target) -> Void) {
        guard disabled == 0 else { return }
        let action: @MainActor () -> Void = { [weak target] in
            if let target { handler(target) }
        }
        if applying != nil {
            applying?.registered.append(action)
            return
        }
        if !groups.redo.isEmpty {
            // A new change ends the redo side at once, as with NSUndoManager
            // (undod empties its own when the group is pushed).
            epoch += 1
            groups.dropRedo()
            post(.synchronized)
        }
        if open == nil { openGroup() }
        open?.actions.append(action)
        if !groupsByEvent, open?.depth == 0 { closeGroup() }
    }

    /// Names the group being built — or, when it has just closed, the group
    /// closed last, as long as it has not been sent (it is sent at the end
    /// of the main actor's turn). While undoing, names the redo (in the
    /// menus here: undod keeps the group's first name).
    public func setActionName(_ name: String) {
        if let applying {
            groups[applying.token]?.name = name
        } else if open != nil {
            open?.name = name
        } else if let top = groups.undo.last {
            groups[top]?.name = name
            post(.registered)
        }
    }

    /// Opens a group; groups opened inside it (or inside the group of this
    /// turn, with `groupsByEvent`) join the outermost one.
    public func beginUndoGrouping() {
        if open == nil { openGroup() }
        open?.depth += 1
    }

    /// Closes the innermost open group; the outermost one's close registers
    /// it (with `groupsByEvent`, at the end of the turn).
    public func endUndoGrouping() {
        guard let group = open, group.depth > 0 else { return }
        open?.depth -= 1
        guard group.depth == 1 else { return }
        // A by-event group that spanned an await: the close its turn
        // scheduled found it still open, so this turn's end closes it.
        if group.byEvent { closeAtEndOfTurn() } else { closeGroup() }
    }

    /// Stops recording registrations until `enableUndoRegistration` (they
    /// nest): for changes that must not be undone, such as loading a file.
    public func disableUndoRegistration() { disabled += 1 }

    /// Undoes one `disableUndoRegistration`.
    public func enableUndoRegistration() { disabled = max(0, disabled - 1) }

    /// Opens the group that registrations outside any `beginUndoGrouping`
    /// go into.
    private func openGroup() {
        open = OpenGroup(depth: 0, byEvent: groupsByEvent)
        if groupsByEvent { closeAtEndOfTurn() }
    }

    private func closeAtEndOfTurn() {
        Task { @MainActor [weak self] in
            guard let self, let group = self.open, group.byEvent, group.depth == 0 else { return }
            self.closeGroup()
        }
    }

    /// Closes the open group here (an empty one is dropped); it goes to
    /// undod at the end of the turn, so that a name given right after it is
    /// sent with it.
    private func closeGroup() {
        guard let group = open else { return }
        open = nil
        guard !group.actions.isEmpty else { return }
        let token = nextToken
        nextToken += 1
        epoch += 1
        groups.push(token, .init(name: group.name, undo: group.actions, redo: []))
        if levelsOfUndo > 0, groups.undo.count > levelsOfUndo { groups.dropOldest(groups.undo.count - levelsOfUndo) }
        outbox.waiting.append(token)
        scheduleSend()
        post(.registered)
    }

    // MARK: Undo and redo

    /// Whether there is something to undo.
    public var canUndo: Bool { !groups.undo.isEmpty || !(open?.actions.isEmpty ?? true) }
    /// Whether there is something to redo (a group whose undo registered nothing does not count).
    public var canRedo: Bool { groups.canRedo }
    /// The next undo's name (`""` when unnamed or none).
    public var undoActionName: String {
        if let open, !open.actions.isEmpty { return open.name }
        return groups.undoName
    }
    /// The next redo's name.
    public var redoActionName: String { groups.redoName }
    /// "Undo Typing", or "Undo" when unnamed.
    public var undoMenuItemTitle: String { undoActionName.isEmpty ? "Undo" : "Undo \(undoActionName)" }
    /// "Redo Typing", or "Redo" when unnamed.
    public var redoMenuItemTitle: String { redoActionName.isEmpty ? "Redo" : "Redo \(redoActionName)" }

    /// Undoes the last group (closing any open group first, explicit ones
    /// included): undod calls back with its token, and its closures run here.
    public func undo() async throws(UndoKitError) { try await ask(.undo) }

    /// Redoes the last undone group.
    public func redo() async throws(UndoKitError) { try await ask(.redo) }

    /// Asks undod to undo or redo, once every group closed here is there.
    private func ask(_ direction: UndoDirection) async throws(UndoKitError) {
        await sendAllNow()
        ownApplies += 1
        defer { ownApplies -= 1 }
        do {
            _ = direction == .undo ? try await stack.undo() : try await stack.redo()
        } catch {
            await synchronize()
            throw error
        }
    }

    /// Forgets every group, here and in undod.
    public func removeAllActions() async throws(UndoKitError) {
        await sendAllNow()
        epoch += 1
        groups.removeAll()
        post(.removedAll)
        do {
            try await stack.clear()
        } catch {
            await synchronize()
            throw error
        }
    }

    func closeAllGroups() {
        if open != nil {
            open?.depth = 0
            open?.byEvent = false
            closeGroup()
        }
    }

    /// undod's `Apply`: runs the group's closures, last registered first,
    /// and keeps what they register as the other direction's closures. The
    /// group must be the one undod's side holds on top — the last this
    /// manager knows undod has — else it is obsolete here (an undo that
    /// timed out in undod and ran late must not run twice).
    func apply(_ request: ApplyRequest) throws {
        guard request.payloads.count == 1, let token = tokens.token(in: request.payloads[0]), let entry = groups[token] else {
            throw UndoKitError.obsolete
        }
        let undoing = request.direction == .undo
        guard undoing ? groups.mayUndo(token) : groups.mayRedo(token) else { throw UndoKitError.obsolete }
        epoch += 1
        applying = (token, [])
        if undoing { isUndoing = true } else { isRedoing = true }
        for action in (undoing ? entry.undo : entry.redo).reversed() { action() }
        let registered = applying?.registered ?? []
        applying = nil
        isUndoing = false
        isRedoing = false
        if undoing { groups.undone(token, registered: registered) } else { groups.redone(token, registered: registered) }
        post(undoing ? .undone : .redone, fromOutside: ownApplies == 0)
    }

    // MARK: Keeping in line with undod

    /// Reads undod's history and keeps, of the groups answered by undod, only
    /// those it still holds on the same side (a limit or the budget dropped
    /// some, undod restarted) — unless something changed here meanwhile.
    func synchronize() async {
        let before = epoch
        guard outbox.waiting.isEmpty, let history = try? await stack.history(), epoch == before, outbox.waiting.isEmpty else { return }
        guard groups.keep(undoIDs: Set(history.undo.map(\.group)), redoIDs: Set(history.redo.map(\.group))) else { return }
        post(.synchronized)
    }

    private func applyLevels() {
        if levelsOfUndo > 0, groups.undo.count > levelsOfUndo {
            epoch += 1
            groups.dropOldest(groups.undo.count - levelsOfUndo)
            post(.synchronized)
        }
        // In order with the pushes and undos that follow.
        var options = stack.options
        options.limit = UInt32(clamping: max(0, levelsOfUndo))
        stack.updateLater(options)
    }

    // MARK: Changes

    /// Every change of what the undo and redo items should say, from now on,
    /// for a menu to follow (each call makes a stream of its own; they end
    /// when the manager closes or goes).
    public func changes() -> AsyncStream<Change> {
        observers.make()
    }

    func post(_ kind: Change.Kind, fromOutside: Bool = false) {
        let change = Change(kind: kind, canUndo: canUndo, canRedo: canRedo, undoActionName: undoActionName,
                            redoActionName: redoActionName, fromOutside: fromOutside)
        observers.yield(change)
    }
}
