import Loop
package import Logging
import SafeText
package import Undo1
package import UndoCore
package import UndoStore

/// The service behind the wire contract: every Manager and Stack operation,
/// with ownership, focus, limits and the announcements that follow each
/// change. It knows no wire: the Bus layer (`ManagerObject`, `StackObject`)
/// decodes calls into typed arguments and turns answers and `Announcement`s
/// into D-Bus; stacks become reachable through a `StackPublisher`,
/// applications are reached through an `ApplyTransport`, time through a
/// `Scheduler`. Every answer that reports a change leaves once the turn's
/// transaction has stored it. Confined to the loop.
///
/// The operations are here; the focus (the focused stack, `UndoFocused`,
/// `SetFocus`, its announcement) in `UndoService+Focus.swift`; limits and
/// settings in `UndoService+Limits.swift`. Ideas of their own are types
/// the service holds: `Registrar` (`Register`, adoption), `HistoryEditor`
/// (`Push`, `SetClean`, `Clear`, the global budget), `StackLifetimes`
/// (detaching, a peer leaving, expiry, deletion), `StackFocus`, and the
/// applier's and the turn's hosts (`ServiceApplyHost`, `ServiceTurnHost`).
package final class UndoService {
    /// The settings in force (replaced on reload).
    var settings: ServiceSettings
    /// The log.
    package let log: Log
    /// Every stack.
    package let registry: StackRegistry
    /// The focus strategy in effect.
    package let focus: any FocusStrategy
    /// Where history is kept.
    package let store: any HistoryStore
    /// The wall clock for group times and detachment.
    let clock: any UndoClock
    /// The daemon's version, as the `Version` property reports it.
    package let version: String
    /// Whether history can be kept on disk at all (false when the state
    /// directory is read-only: every stack is then memory-only, and says so).
    package let canPersist: Bool
    /// Where stacks become reachable and announcements go.
    let publisher: any StackPublisher
    /// Timers.
    let scheduler: any Scheduler
    /// This turn's transaction.
    let turn: TurnTransaction
    /// What is announced, to whom.
    let announcer: Announcer
    /// The undo and redo calls out to applications.
    private(set) lazy var applier = Applier(host: applyHost, transport: transport, scheduler: scheduler)
    private let transport: any ApplyTransport
    /// Undo and redo requests, and what a move in flight needs of the service.
    private(set) lazy var applyHost = ServiceApplyHost(of: self)
    /// `Push`, `SetClean` and `Clear`, and the global budget.
    private(set) lazy var editor = HistoryEditor(of: self)
    /// What ending a turn needs of the service.
    private(set) lazy var turnHost = ServiceTurnHost(of: self)
    /// `Register`: new stacks, and who may adopt a detached one.
    private(set) lazy var registrar = Registrar(of: self)
    /// Stacks detached, caught up with, expired and deleted.
    private(set) lazy var lifetimes = StackLifetimes(of: self)
    /// Which stack the global key acts on, announced once a turn.
    let stackFocus: StackFocus
    /// The first group id of this run: groups below it were read from the
    /// store, which, when it can only be read (`canPersist` false), cannot
    /// remember their moves (`ServiceApplyHost.refusalToMoveStored`).
    var firstGroupOfThisRun: UInt64 = 0

    /// A service over `store`, publishing through `publisher`, applying
    /// through `transport`; `start` loads what the store holds.
    package init(settings: ServiceSettings, log: Log, store: any HistoryStore, focus: any FocusStrategy,
                clock: any UndoClock, version: String, canPersist: Bool = true,
                registry: StackRegistry = StackRegistry(), publisher: any StackPublisher,
                transport: any ApplyTransport, scheduler: any Scheduler) {
        self.settings = settings
        self.log = log
        self.store = store
        self.focus = focus
        self.clock = clock
        self.version = version
        self.canPersist = canPersist
        self.registry = registry
        self.publisher = publisher
        self.transport = transport
        self.scheduler = scheduler
        turn = TurnTransaction(store: store, log: log)
        announcer = Announcer(turn: turn, strategy: focus.name)
        stackFocus = StackFocus(strategy: focus, registry: registry, announcer: announcer)
    }

    /// Loads stored stacks (detached) and publishes every one.
    package func start() throws(StoreError) {
        store.budgetChanged(to: settings.maxTotalBytes)
        let (stacks, counters) = try store.load(settings: settings, now: clock.now)
        registry.nextNumber = counters.nextStackNumber
        registry.groupIDs = GroupIDGenerator(next: counters.nextGroupID)
        firstGroupOfThisRun = counters.nextGroupID
        for record in stacks {
            registry.add(record)
            let dropped = applySettings(to: record)
            if !dropped.isEmpty { store.stackChanged(record, groups: dropped.map { GroupChange(id: $0) }) }
            registry.countBytes(of: record)
            publish(record)
        }
        if !stacks.isEmpty {
            log.notice(.stacksRestored, "restored \(stacks.count) stacks from the history store, detached until their apps return.")
        }
        focus.onChange = { [unowned stackFocus] in stackFocus.announce() }
        lifetimes.scheduleExpiry()
    }

    // MARK: Manager

    /// `Subscribe`: `caller` gets the stacks' signals from now on.
    package func subscribe(caller: String) {
        announcer.subscribe(caller, stacks: registry.all)
    }

    /// `Unsubscribe`: ends `caller`'s subscription, if it had one.
    package func unsubscribe(caller: String) {
        announcer.unsubscribe(caller)
    }

    /// `Register`: opens, re-opens or adopts the caller's stack; answers with it.
    /// `origin` is the caller's program (nil where undod could not tell):
    /// a detached stack goes only to its own (see `Registrar`).
    package func register(caller: String, appId: String, options: RegistrationOptions, origin: StackOrigin?,
                          served: ServedProcess? = nil,
                          reply: @escaping (Result<StackRecord, ServiceError>) -> Void) {
        answer(.bookkeeping, reply) { () throws(ServiceError) in
            try registrar.register(caller: caller, appId: appId, options: options, origin: origin, served: served)
        }
    }

    /// A connection left the bus: its stacks are detached (and caught up
    /// with in batches, `StackLifetimes`) and its subscription ends.
    package func peerLeft(_ name: String) {
        announcer.unsubscribe(name)
        lifetimes.peerLeft(name)
    }

    /// How many departed stacks one batch catches up with.
    package static let settleBatch = StackLifetimes.settleBatch
    /// How long the loop is left to other calls between two batches (ms).
    package static let settleInterval = StackLifetimes.settleInterval

    /// `Forget`.
    package func forget(path: String, reply: @escaping (Result<Void, ServiceError>) -> Void) {
        answer(.bookkeeping, reply) { () throws(ServiceError) in
            guard let record = registry.stack(atPath: path) else { throw .unknownStack(path) }
            guard !record.isAttached else { throw .notDetached }
            lifetimes.remove(record)
        }
    }

    // MARK: Stack

    /// `Push`/`PushGroup`: answers with what the push did once it is stored.
    /// With `file`, the actions are those written ahead to it (`writeAhead`),
    /// and a new group's row names it rather than holding them.
    package func push(_ record: StackRecord, caller: String, name: String, actions: EncodedActions, hints: PushHints,
                     storedIn file: PayloadFile? = nil, reply: @escaping (Result<PushResult, ServiceError>) -> Void) {
        answer(.change(record), reply) { () throws(ServiceError) in
            let result = try editor.push(record, caller: caller, name: name, actions: actions, hints: hints)
            if let file, record.persistent, !result.merged { store.adopt(file, forGroup: result.group) }
            return result
        }
    }

    /// Starts storing the actions of a large push to `record` in a file of
    /// their own, off the loop, while the call waits (`PayloadFiles`); `then`
    /// gets the file, on another thread. False when there is nothing to do
    /// ahead: a caller who is not the owner (its push is refused), a
    /// memory-only stack, a store that keeps no files, actions under
    /// `PayloadFiles.threshold`.
    package func writeAhead(_ actions: EncodedActions, for record: StackRecord, caller: String,
                            then: @escaping @Sendable (PayloadFile?) -> Void) -> Bool {
        guard record.owner == caller, record.persistent, actions.buffer.count >= PayloadFiles.threshold else {
            return false
        }
        return store.writeAhead(actions, then: then)
    }

    /// A push whose payloads alone, `bytes` as counted in the message
    /// before any copy, exceed the stack's `MaxBytes`: refused as `push`
    /// would refuse it (the owner's `PayloadTooLarge`, anyone else's
    /// `NotOwner`), without the payloads ever being read. Nothing changes.
    package func refuseOversizedPush(_ record: StackRecord, caller: String, bytes: UInt64,
                                     reply: @escaping (Result<PushResult, ServiceError>) -> Void) {
        reply(.failure(editor.refusalOfOversizedPush(record, caller: caller, bytes: bytes)))
    }

    /// The most payload bytes one group of `record` may hold (`MaxBytes`).
    package func maxBytes(of record: StackRecord) -> Int {
        Int(clamping: record.stack.settings.maxBytes)
    }

    /// `Undo`/`Redo` on a named stack: queued behind any apply in flight,
    /// answered once the move is stored. With `expecting`, only that group
    /// may move (a notification's button names the group it offers); if
    /// another is next, nothing moves.
    package func apply(_ direction: Direction, on record: StackRecord, caller: String?,
                      expecting group: ExpectedGroup? = nil, followsFocus: Bool = false,
                      completion: @escaping (Result<CompletedMove, ServiceError>) -> Void) {
        applyHost.request(direction, on: record, caller: caller, expecting: group, followsFocus: followsFocus,
                          completion: completion)
    }

    /// `SetClean`.
    package func setClean(_ record: StackRecord, caller: String, reply: @escaping (Result<Void, ServiceError>) -> Void) {
        answer(.change(record), reply) { () throws(ServiceError) in try editor.setClean(record, caller: caller) }
    }

    /// `Clear`.
    package func clear(_ record: StackRecord, caller: String, reply: @escaping (Result<Void, ServiceError>) -> Void) {
        answer(.change(record), reply) { () throws(ServiceError) in try editor.clear(record, caller: caller) }
    }

    /// `Activate`.
    package func activate(_ record: StackRecord, caller: String, reply: @escaping (Result<Void, ServiceError>) -> Void) {
        answer(.bookkeeping, reply) { () throws(ServiceError) in
            try requireOwner(record, caller)
            stackFocus.noteActivity(of: record)
        }
    }

    /// `Deactivate`: the owner's app lost the user's focus.
    package func deactivate(_ record: StackRecord, caller: String,
                            reply: @escaping (Result<Void, ServiceError>) -> Void) {
        answer(.bookkeeping, reply) { () throws(ServiceError) in
            try requireOwner(record, caller)
            stackFocus.deactivated(record)
        }
    }

    /// `Close`.
    package func close(_ record: StackRecord, caller: String, discard: Bool,
                      reply: @escaping (Result<Void, ServiceError>) -> Void) {
        answer(.bookkeeping, reply) { () throws(ServiceError) in
            try requireOwner(record, caller)
            if let inFlight = record.stack.inFlight { throw .model(.busy(inFlight.direction)) }
            if discard { lifetimes.remove(record) } else { lifetimes.detach(record) }
        }
    }

    // MARK: The turn

    /// Ends the loop's turn: announces the focus if it may have moved,
    /// commits, then sends the held replies and the announcements
    /// (`TurnTransaction.end`). undod calls it at every turn's end.
    package func endTurn() {
        stackFocus.announceIfMoved()
        turn.end(turnHost)
    }

    /// Writes everything pending now (on the way out).
    package func save() throws(StoreError) {
        lifetimes.settleAllDepartures()
        try turn.save(counters: counters)
    }

    // MARK: Shared steps

    /// Runs `body` now; its answer goes to `reply` once what it reports is
    /// stored (see `TurnTransaction.hold` and `end`), a refusal at once.
    func answer<T>(_ durability: TurnTransaction.Durability, _ reply: @escaping (Result<T, ServiceError>) -> Void,
                           _ body: () throws(ServiceError) -> T) {
        do {
            let value = try body()
            // Closures only for a reply that waits: most leave at once.
            guard turn.mustHold(durability, counters: counters) else { return reply(.success(value)) }
            turn.hold(durability, send: { reply(.success(value)) }, fail: { reply(.failure($0)) })
        } catch {
            reply(.failure(error))
        }
    }

    /// Makes `record` reachable, and announces it at the end of the turn.
    func publish(_ record: StackRecord) {
        publisher.publish(record, of: self)
        announcer.added(record)
    }

    /// Something about `record` changed (history, owner, settings): store it
    /// (with the groups that changed) and announce what differs. The focus
    /// is not looked up again here: no history or limit decides it, and
    /// what does (activity, an owner, opting out) announces it where it
    /// changes.
    func changed(_ record: StackRecord, groups: @autoclosure () -> [GroupChange] = []) {
        registry.countBytes(of: record)
        // A memory-only stack's groups are never written (`HistoryStore`):
        // no list is made for one.
        store.stackChanged(record, groups: record.persistent ? groups() : [])
        announcer.changed(record)
    }

    /// The counters that must never repeat, as they are now.
    var counters: StoreCounters {
        StoreCounters(nextStackNumber: registry.nextNumber, nextGroupID: registry.groupIDs.next)
    }

    /// Every group of `stack`, as changes that delete them once gone.
    static func allGroups(of stack: UndoStack) -> [GroupChange] {
        let snapshot = stack.snapshot
        return (snapshot.undo + snapshot.redo).map { GroupChange(id: $0.id) }
    }
}
