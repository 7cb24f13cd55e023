import DBus
import Undo1
import UndoCore
import UndoStore

/// The service behind the wire contract: every Manager and Stack operation,
/// ownership, focus, limits and the announcements that follow each change.
/// The D-Bus objects (`ManagerObject`, `StackObject`) only translate calls
/// into these methods. Confined to the loop.
public final class UndoService {
    /// The loop everything runs on.
    public let loop: EventLoop
    /// The daemon's bus connection.
    public let connection: Connection
    /// The exported objects.
    public let objects: ObjectServer
    /// The settings in force (replaced on reload).
    public private(set) var config: DaemonConfig
    /// The log.
    public let log: Log
    /// Every stack.
    public let registry: StackRegistry
    /// The focus strategy in effect.
    public let focus: any FocusStrategy
    /// Where history is kept.
    public let store: any HistoryStore
    /// The wall clock for group times.
    let clock: any UndoClock
    /// The daemon's version, as the `Version` property reports it.
    public let version: String
    /// Whether history can be kept on disk at all (false when the state
    /// directory is read-only: every stack is then memory-only, and says so).
    public let canPersist: Bool

    /// Every trigger's way in: the focused undo or redo, asking first, the notification.
    lazy var triggers = TriggerHandler(service: self)

    private var applier: Applier?
    private var announcedFocus = ManagerProperties.noStack
    private var announcedStrategy = ""
    /// The connections subscribed to the stacks' signals (`Subscribe`).
    private var subscribers: Set<String> = []
    private var heldReplies: [HeldReply] = []
    /// Signals to send at the end of the turn, after the replies; those with
    /// a stack number announce a change that a failed commit may take back.
    private var queuedSignals: [(takenBackWith: UInt64?, emit: () -> Void)] = []
    /// Each persistent stack as it was before this turn's first change to
    /// it, to put back if the turn's commit fails.
    private var turnBackups: [UInt64: TurnBackup] = [:]
    /// What each stack in `turnBackups` had announced when the turn began.
    private var turnStartAnnounced: [UInt64: StackProperties?] = [:]
    /// Stacks on which an undo or redo was committed this turn.
    private var appliedThisTurn: Set<UInt64> = []
    private var ttlTimer: EventLoop.Token?
    /// The store's last failure, so that a lasting one is logged once.
    private var lastFailure: String?

    /// Wires a service to a connection; `start` exports it.
    public init(connection: Connection, config: DaemonConfig, log: Log, store: any HistoryStore,
                focus: any FocusStrategy, clock: any UndoClock, version: String, canPersist: Bool = true,
                registry: StackRegistry = StackRegistry()) {
        self.registry = registry
        self.canPersist = canPersist
        self.loop = connection.loop
        self.connection = connection
        self.objects = ObjectServer(connection: connection)
        self.config = config
        self.log = log
        self.store = store
        self.focus = focus
        self.clock = clock
        self.version = version
    }

    /// Loads stored stacks (detached), exports the manager and every stack,
    /// and starts following owners on the bus.
    public func start() throws(StoreError) {
        applier = Applier(service: self)
        let (stacks, counters) = try store.load(config: config, now: clock.now)
        registry.nextNumber = counters.nextStackNumber
        registry.groupIDs = GroupIDGenerator(next: counters.nextGroupID)
        objects.export(path: Undo1.managerPath, interfaces: [ManagerObject.interface(for: self)])
        objects.enableObjectManager(at: Undo1.managerPath)
        for record in stacks {
            registry.add(record)
            let dropped = applySettings(to: record)
            if !dropped.isEmpty { store.stackChanged(record, groups: dropped.map { GroupChange(id: $0) }) }
            export(record)
        }
        if !stacks.isEmpty {
            log.notice("restored \(stacks.count) stacks from the history store, detached until their apps return.")
        }
        connection.onNameOwnerChanged { [unowned self] name, _, newOwner in
            guard newOwner.isEmpty, name.hasPrefix(":") else { return }
            self.subscribers.remove(name)
            self.ownerLeft(name)
        }
        _ = loop.addTurnEndHook { [unowned self] in self.endTurn() }
        // Made now: the notifier starts following the notification server.
        _ = triggers
        announcedStrategy = focus.name
        focus.onChange = { [unowned self] in self.announceFocus() }
        scheduleExpiry()
    }

    // MARK: Manager

    /// `Register`: opens, re-opens or adopts the caller's stack.
    public func register(caller: String, appId: String, options raw: [String: DBusValue]) throws(ServiceError) -> StackRecord {
        do { try AppIdRule().validate(appId) } catch { throw .model(error) }
        let options = try OptionRules.registration(raw)
        let document = options.document ?? ""
        let record: StackRecord
        var changes: [GroupChange] = []
        if let existing = registry.stack(appId: appId, document: document) {
            if existing.isAttached, existing.owner != caller { throw .alreadyOwned(owner: existing.owner) }
            if let inFlight = existing.stack.inFlight, options.changesSomething {
                throw .model(.busy(inFlight.direction))
            }
            if existing.persistent, options.persist == false {
                // Leaving the disk: every payload must be in memory first.
                do { try store.loadAllActions(of: existing) } catch { throw .storageFailed(error.description) }
            }
            if !existing.isAttached {
                changes = adopt(existing, caller: caller, stateTag: options.stateTag)
            }
            record = existing
        } else {
            try requireReserved(stacks: 1, groups: 0)
            record = StackRecord(
                number: registry.takeNumber(), appId: appId, document: document, title: appId, owner: caller,
                requestedLevels: 0, requestedMaxBytes: 0, persistent: canPersist && config.persist, globalTrigger: true,
                stack: UndoStack(baseStateTag: options.stateTag ?? ""))
            registry.add(record)
        }
        if let title = options.title { record.title = title.isEmpty ? appId : title }
        if let limit = options.limit { record.requestedLevels = limit }
        if let maxBytes = options.maxBytes { record.requestedMaxBytes = maxBytes }
        if let persist = options.persist { record.persistent = canPersist && persist }
        if let globalTrigger = options.globalTrigger { record.globalTrigger = globalTrigger }
        if let windows = options.windowIDs { record.windows = windows }
        changes += applySettings(to: record).map { GroupChange(id: $0) }
        noteActivity(of: record)
        if !objects.isExported(record.path) { export(record) }
        changed(record, groups: changes)
        log.debug("\(caller) registered \(record.displayName) for \(appId)\(document.isEmpty ? "" : ":\(document)").")
        return record
    }

    /// Gives a detached stack to `caller`; returns the groups a mismatching
    /// state tag discarded.
    private func adopt(_ record: StackRecord, caller: String, stateTag: String?) -> [GroupChange] {
        var discarded: [GroupChange] = []
        if let stateTag, !stateTag.isEmpty, stateTag != record.stack.presentStateTag {
            log.notice("\(record.displayName): the history no longer matches the document "
                + "(state tag “\(stateTag)” ≠ “\(record.stack.presentStateTag)”), so it starts empty.")
            discarded = Self.allGroups(of: record.stack)
            record.stack = UndoStack(settings: record.stack.settings, baseStateTag: stateTag)
        }
        record.owner = caller
        record.detachedSince = nil
        scheduleExpiry()
        return discarded
    }

    /// Every group of `stack`, as changes that delete them once gone.
    private static func allGroups(of stack: UndoStack) -> [GroupChange] {
        let snapshot = stack.snapshot
        return (snapshot.undo + snapshot.redo).map { GroupChange(id: $0.id) }
    }

    /// The focused stack as of this moment: once the focus strategy has
    /// caught up with the desktop (the X server's answer), `body` gets it.
    public func withFocusedStack(_ body: @escaping (StackRecord?) -> Void) {
        focus.settle { [unowned self] in body(self.focus.focusedStack(in: self.registry)) }
    }

    /// `UndoFocused`/`RedoFocused`, and every trigger: undo or redo on the
    /// focused stack, answering with the stack it acted on.
    public func applyFocused(_ direction: Direction, caller: String?,
                             completion: @escaping (StackRecord?, Result<ApplyOutcome, ServiceError>) -> Void) {
        withFocusedStack { [unowned self] record in
            guard let record else { return completion(nil, .failure(.noFocusedStack)) }
            self.apply(direction, on: record, caller: caller) { completion(record, $0) }
        }
    }

    /// `Subscribe`: `caller` gets the stacks' signals from now on (once,
    /// however often it asks). The first subscriber makes every stack's
    /// present properties the baseline of its next PropertiesChanged.
    public func subscribe(caller: String) {
        if subscribers.isEmpty {
            for record in registry.all where objects.isExported(record.path) { record.announced = record.properties }
        }
        subscribers.insert(caller)
    }

    /// `Unsubscribe`: ends `caller`'s subscription, if it had one.
    public func unsubscribe(caller: String) {
        subscribers.remove(caller)
    }

    /// Whether anyone gets the stacks' signals: without a subscriber, no
    /// stack signal is built at all (the manager's are always sent).
    var announcesStacks: Bool { !subscribers.isEmpty }

    /// `SetFocus`.
    public func setFocus(path: String) throws(ServiceError) {
        guard let record = registry.stack(atPath: path) else { throw .unknownStack(path) }
        guard record.isAttached else { throw .noOwner }
        guard record.globalTrigger else { throw .triggerDisabled }
        focus.pin(record)
        announceFocus()
    }

    /// `Forget`.
    public func forget(path: String) throws(ServiceError) {
        guard let record = registry.stack(atPath: path) else { throw .unknownStack(path) }
        guard !record.isAttached else { throw .notDetached }
        remove(record)
    }

    /// The focused stack's path, or `/`.
    public var focusedPath: String { focus.focusedStack(in: registry)?.path ?? ManagerProperties.noStack }

    // MARK: Stack

    /// `Push`/`PushGroup`.
    public func push(_ record: StackRecord, caller: String, name: String, actions: [Action],
                     hints raw: [String: DBusValue]) throws(ServiceError) -> PushResult {
        try requireOwner(record, caller)
        let options = try OptionRules.push(raw)
        let hints = PushHints(mergeKey: options.mergeKey ?? "", mergeWindowMilliseconds: options.mergeWindowMilliseconds,
                              stateTag: options.stateTag ?? "")
        if let inFlight = record.stack.inFlight { throw .model(.busy(inFlight.direction)) }
        try requireReserved(stacks: 0, groups: 1)
        loadTopActions(of: record)
        let now = clock.now
        try Self.checkSendable(actions, mergingInto: record.stack.mayMerge(hints: hints, now: now)
                                   ? record.stack.topUndoGroup : nil)
        willChange(record)
        let result: PushResult
        do {
            result = try record.stack.push(name: name, actions: actions, hints: hints, now: now,
                                           ids: &registry.groupIDs)
        } catch {
            throw .model(error)
        }
        if config.focusFollowsPush { noteActivity(of: record) }
        enforceBudget(protecting: record)
        let written = GroupChange(id: result.group, actionsChanged: true)
        changed(record, groups: [written] + (result.discarded + result.dropped).map { GroupChange(id: $0) })
        guard announcesStacks else { return result }
        let path = record.path
        queueSignal(unlessTakenBack: record) { [objects] in
            objects.emitSignal(path: path, interface: Undo1.stackInterface, member: PushedSignal.member,
                               arguments: PushedSignal(group: result.group, name: name, merged: result.merged).arguments)
        }
        return result
    }

    /// `Undo`/`Redo` on a named stack: queued behind any apply in flight.
    /// With `expecting`, only that group may move (a notification's button
    /// names the group it offers); if another is next, nothing moves.
    public func apply(_ direction: Direction, on record: StackRecord, caller: String?,
                      expecting group: ExpectedGroup? = nil,
                      completion: @escaping (Result<ApplyOutcome, ServiceError>) -> Void) {
        // Anyone but the owner — a trigger (no caller) included — is foreign.
        if caller != record.owner, !record.globalTrigger {
            completion(.failure(.triggerDisabled))
            return
        }
        guard record.isAttached else {
            completion(.failure(.noOwner))
            return
        }
        if record.applies.isApplying, record.applies.waiting.count >= Int(config.applyQueue) {
            completion(.failure(.queueFull(limit: config.applyQueue)))
            return
        }
        applier?.enqueue(ApplyQueue.Request(direction: direction, caller: caller, completion: completion,
                                            expectedGroup: group), on: record)
    }

    /// `SetClean`.
    public func setClean(_ record: StackRecord, caller: String) throws(ServiceError) {
        try requireOwner(record, caller)
        if let inFlight = record.stack.inFlight { throw .model(.busy(inFlight.direction)) }
        willChange(record)
        do { try record.stack.setClean() } catch { throw .model(error) }
        changed(record)
    }

    /// `Clear`.
    public func clear(_ record: StackRecord, caller: String) throws(ServiceError) {
        try requireOwner(record, caller)
        if let inFlight = record.stack.inFlight { throw .model(.busy(inFlight.direction)) }
        let groups = Self.allGroups(of: record.stack)
        willChange(record)
        do { try record.stack.clear() } catch { throw .model(error) }
        changed(record, groups: groups)
    }

    /// `Activate`.
    public func activate(_ record: StackRecord, caller: String) throws(ServiceError) {
        try requireOwner(record, caller)
        noteActivity(of: record)
        announceFocus()
    }

    /// `Close`.
    public func close(_ record: StackRecord, caller: String, discard: Bool) throws(ServiceError) {
        try requireOwner(record, caller)
        if let inFlight = record.stack.inFlight { throw .model(.busy(inFlight.direction)) }
        if discard {
            remove(record)
        } else {
            detach(record)
        }
    }

    /// Marks `record` as the most recently active stack and tells the focus strategy.
    private func noteActivity(of record: StackRecord) {
        registry.markActive(record)
        focus.noteActivity(of: record, in: registry)
    }

    /// While the store cannot write, hands out no stack number or group id it
    /// has not reserved on disk: after a crash one could be handed out again.
    private func requireReserved(stacks: UInt64, groups: UInt64) throws(ServiceError) {
        guard let lastFailure else { return }
        let needed = StoreCounters(nextStackNumber: registry.nextNumber &+ stacks,
                                   nextGroupID: registry.groupIDs.next &+ groups)
        guard store.hasReserved(needed) else { throw .storageFailed(lastFailure) }
    }

    private func requireOwner(_ record: StackRecord, _ caller: String) throws(ServiceError) {
        guard record.isAttached, caller == record.owner else { throw .notOwner(caller: caller) }
    }

    // MARK: Applies (called by the Applier)

    /// Brings the top groups' actions from the store; a failure is logged,
    /// and the undo, redo or merge that needed them then refuses.
    func loadTopActions(of record: StackRecord) {
        do {
            try store.loadTopActions(of: record)
        } catch {
            log.error("\(record.displayName): cannot read payloads from the history store: \(error)")
        }
    }

    /// An undo or redo was applied by the owner and committed.
    func applied(_ record: StackRecord, _ outcome: ApplyOutcome, dropped: [UInt64]) {
        appliedThisTurn.insert(record.number)
        changed(record, groups: ([outcome.group] + dropped).map { GroupChange(id: $0) })
        guard announcesStacks else { return }
        let path = record.path
        queueSignal { [objects] in
            let signal = AppliedSignal(direction: outcome.direction == .undo ? .undo : .redo, group: outcome.group,
                                       name: outcome.name)
            objects.emitSignal(path: path, interface: Undo1.stackInterface, member: AppliedSignal.member,
                               arguments: signal.arguments)
        }
    }

    /// The owner said the group in flight can never be applied: it is gone,
    /// and the group below it took over its state tag.
    func droppedObsolete(_ record: StackRecord, group: UInt64) {
        let below = record.stack.topUndoGroup.map { [GroupChange(id: $0.id)] } ?? []
        changed(record, groups: [GroupChange(id: group)] + below)
    }

    /// Something about `record` changed (history, owner, settings): store it
    /// (with the groups that changed) and announce what differs.
    func changed(_ record: StackRecord, groups: [GroupChange] = []) {
        store.stackChanged(record, groups: groups)
        announce(record)
        announceFocus()
    }

    /// Notes that `record`'s history changes this turn, so a failed commit
    /// can put it back. While the store saves, what is on disk is exactly the
    /// history before this turn, so nothing is copied (a copy costs the
    /// whole stack); once it has failed, memory may be ahead of the disk, so
    /// the history is copied first.
    private func willChange(_ record: StackRecord) {
        guard record.persistent, record.stack.inFlight == nil, turnBackups[record.number] == nil else { return }
        turnBackups[record.number] = lastFailure == nil && store.isSavedAsIs(record.number)
            ? .onDisk : .copy(record.stack)
        turnStartAnnounced[record.number] = record.announced
    }

    /// The most a group's payloads of one direction may take on the wire:
    /// `Apply` carries them in one `aay`, and D-Bus refuses an array over
    /// 64 MiB (each payload costs up to 7 bytes of framing).
    static let sendableBytes = (64 << 20) - (64 << 10)

    /// Refuses a push whose group (with the top group, when it may merge)
    /// could not be sent back to its owner in one `Apply`.
    private static func checkSendable(_ actions: [Action], mergingInto top: ActionGroup?) throws(ServiceError) {
        let kept = top.map { ActionCoding.directionSizes($0.encodedActions, framing: 7) } ?? (0, 0)
        let undo = kept.0 + actions.reduce(0) { $0 + $1.undo.count + 7 }
        let redo = kept.1 + actions.reduce(0) { $0 + $1.redo.count + 7 }
        guard max(undo, redo) <= sendableBytes else { throw .tooLargeToSend(bytes: max(undo, redo)) }
    }

    /// Queues a signal to leave at the end of this turn, after the replies
    /// (a signal costs the bus a broadcast; the caller should not wait on
    /// it). With `unlessTakenBack`, it is dropped if a failed commit takes
    /// back this turn's change to that stack.
    private func queueSignal(unlessTakenBack record: StackRecord? = nil, _ emit: @escaping () -> Void) {
        queuedSignals.append((record?.number, emit))
    }


    /// Puts the settings in force on `record` once no apply is in flight (a
    /// reload skips stacks that are busy).
    func settleSettings(of record: StackRecord) {
        guard record.stack.inFlight == nil, record.settings(config: config) != record.stack.settings else { return }
        let dropped = applySettings(to: record)
        changed(record, groups: dropped.map { GroupChange(id: $0) })
    }

    // MARK: Owners and lifetime

    private func ownerLeft(_ name: String) {
        for record in registry.stacks(ownedBy: name) {
            log.debug("\(name) left the bus: \(record.displayName) is detached.")
            detach(record)
        }
    }

    private func detach(_ record: StackRecord) {
        applier?.ownerLeft(record)
        record.owner = ""
        record.windows = []
        record.detachedSince = clock.now
        changed(record)
        scheduleExpiry()
    }

    private func remove(_ record: StackRecord) {
        applier?.ownerLeft(record)
        registry.remove(record)
        store.stackRemoved(number: record.number)
        let path = record.path
        let interfaces = objects.unexport(path: path, announce: false)
        queueSignal { [objects] in objects.announceRemoved(path: path, interfaces: interfaces) }
        announceFocus()
        log.debug("\(record.displayName) was deleted.")
    }

    /// Removes detached stacks older than `stacks.detached_ttl`, and sets a
    /// timer for the next one to expire.
    private func scheduleExpiry() {
        if let ttlTimer { loop.remove(ttlTimer) }
        ttlTimer = nil
        let ttl = Int64(clamping: config.detachedTTLMilliseconds).multipliedReportingOverflow(by: 1_000)
            .overflow ? Int64.max : Int64(clamping: config.detachedTTLMilliseconds) * 1_000
        let now = clock.now
        var next: Int64?
        for record in registry.all {
            guard let since = record.detachedSince, !record.isAttached else { continue }
            let expiry = since.addingReportingOverflow(ttl).overflow ? Int64.max : since + ttl
            if expiry <= now {
                log.debug("\(record.displayName) had no owner for longer than stacks.detached_ttl: deleted.")
                remove(record)
            } else {
                next = min(next ?? expiry, expiry)
            }
        }
        guard let next else { return }
        let milliseconds = Int(min((next - now + 999) / 1_000, Int64(Int32.max)))
        ttlTimer = loop.schedule(afterMilliseconds: milliseconds) { [unowned self] in
            self.ttlTimer = nil
            self.scheduleExpiry()
        }
    }

    // MARK: Limits

    /// A reloaded config: new defaults apply to every stack that uses them.
    public func reload(_ newConfig: DaemonConfig) {
        config = newConfig
        for record in registry.all where record.stack.inFlight == nil {
            let dropped = applySettings(to: record)
            changed(record, groups: dropped.map { GroupChange(id: $0) })
        }
        enforceBudget()
        scheduleExpiry()
    }

    /// Puts the settings in force on `record`; returns the groups dropped.
    @discardableResult
    private func applySettings(to record: StackRecord) -> [UInt64] {
        let settings = record.settings(config: config)
        guard settings != record.stack.settings else { return [] }
        return (try? record.stack.setSettings(settings)) ?? []
    }

    /// `limits.max_total_bytes`: the least recently active stacks lose their
    /// oldest groups first.
    /// A push never loses the group it just made: `protecting`'s top group
    /// is left out of what may go.
    private func enforceBudget(protecting pushed: StackRecord? = nil) {
        guard registry.totalBytes > config.maxTotalBytes else { return }
        let records = registry.all
        let candidates = records.map { record -> GlobalBudget.Candidate<[UInt64]> in
            var evictable = Array(record.stack.evictableGroupBytes)
            if record === pushed, record.stack.redoDepth == 0, !evictable.isEmpty { evictable.removeLast() }
            return GlobalBudget.Candidate(stack: record.number, bytes: record.stack.bytes,
                                          lastActive: Int64(clamping: record.activity), evictable: evictable)
        }
        for cut in GlobalBudget(maxTotalBytes: config.maxTotalBytes).plan(candidates) where cut.groups > 0 {
            guard let record = registry.byNumber[cut.stack] else { continue }
            willChange(record)
            let dropped = record.stack.dropOldest(cut.groups)
            log.debug("\(record.displayName) lost \(cut.groups) old groups to limits.max_total_bytes.")
            changed(record, groups: dropped.map { GroupChange(id: $0) })
        }
    }

    // MARK: Announcements and replies

    private var counters: StoreCounters {
        StoreCounters(nextStackNumber: registry.nextNumber, nextGroupID: registry.groupIDs.next)
    }

    private func export(_ record: StackRecord) {
        record.announced = record.properties
        objects.export(path: record.path, interfaces: [StackObject.interface(for: record, service: self)],
                       announce: false)
        let path = record.path
        queueSignal { [objects] in objects.announceAdded(path: path) }
    }

    /// Queues PropertiesChanged for what differs from the last announcement;
    /// it leaves after this turn's replies. Nothing while nobody subscribes.
    private func announce(_ record: StackRecord) {
        guard announcesStacks else { return }
        guard objects.isExported(record.path) else { return }
        let now = record.properties
        let changed = now.changes(since: record.announced)
        record.announced = now
        guard !changed.isEmpty else { return }
        let path = record.path
        queueSignal(unlessTakenBack: record) { [objects] in
            objects.propertiesChanged(path: path, interface: Undo1.stackInterface, values: changed)
        }
    }


    /// Queues PropertiesChanged of the manager's `FocusedStack` (and
    /// `FocusStrategy`, which `auto` may change) when they moved.
    func announceFocus() {
        var changed: [String: DBusValue] = [:]
        let path = focusedPath
        if path != announcedFocus {
            announcedFocus = path
            changed[ManagerProperties.focusedStackName] = .objectPath(path)
        }
        let strategy = focus.name
        if strategy != announcedStrategy {
            announcedStrategy = strategy
            changed[ManagerProperties.focusStrategyName] = .string(strategy)
        }
        guard !changed.isEmpty else { return }
        queueSignal { [objects] in
            objects.propertiesChanged(path: Undo1.managerPath, interface: Undo1.managerInterface,
                                      values: changed)
        }
    }

    /// What a reply reports, which decides its fate if the turn's commit fails.
    public enum Durability {
        /// A change to the history (push, set-clean, clear): on a failed
        /// commit it is taken back and the caller gets `StorageFailed`.
        case change(StackRecord)
        /// An undo or redo the owner already applied: on a failed commit it
        /// stays in memory and the caller gets `StorageFailed` saying so.
        case applied(StackRecord)
        /// Anything else: answered as it is, written with the next commit.
        case bookkeeping
    }

    /// Where a stack's history as it was before this turn can be found.
    private enum TurnBackup {
        /// On disk: the store held it exactly, so nothing was copied.
        case onDisk
        /// In this copy, taken before the turn's first change.
        case copy(UndoStack)
    }

    /// A reply waiting for the turn's commit.
    private struct HeldReply {
        let durability: Durability
        let send: () -> Void
        let fail: (DBusError) -> Void
    }

    /// Sends a reply once what it reports is stored: at once when nothing
    /// waits for a commit, else at the end of this turn, after the commit.
    func deliver(_ durability: Durability, send: @escaping () -> Void, fail: @escaping (DBusError) -> Void) {
        let mustWait: Bool
        switch durability {
        case .change(let record) where !record.persistent, .applied(let record) where !record.persistent:
            // A memory-only stack waits only for its new ids to be reserved.
            mustWait = !store.hasReserved(counters)
        default:
            mustWait = store.needsCommit(counters: counters)
        }
        if mustWait {
            heldReplies.append(HeldReply(durability: durability, send: send, fail: fail))
        } else {
            send()
        }
    }

    /// Writes everything pending now (at the end of each turn, and on the way out).
    public func save() throws(StoreError) {
        try store.commit(counters: counters)
    }

    private func endTurn() {
        var failure: StoreError?
        do {
            try save()
            if let lastFailure { log.notice("The history store saves again (it failed with: \(lastFailure)).") }
            lastFailure = nil
        } catch {
            failure = error
            if lastFailure != error.description {
                log.error("The history store could not save: \(error).")
            }
            lastFailure = error.description
        }
        let replies = heldReplies
        let backups = turnBackups
        heldReplies.removeAll()
        turnBackups.removeAll()
        defer { turnStartAnnounced.removeAll() }
        defer {
            appliedThisTurn.removeAll()
            // Announcements made while sending are sent too, in order.
            while !queuedSignals.isEmpty {
                let signals = queuedSignals
                queuedSignals.removeAll()
                for signal in signals { signal.emit() }
            }
        }
        guard let failure else {
            for reply in replies { reply.send() }
            return
        }
        // Take back this turn's changes, except on stacks whose owner applied
        // an undo or redo this turn or has one out now: their document moved
        // (or may), so memory must stay with it.
        var reverted: Set<UInt64> = []
        for (number, backup) in backups where !appliedThisTurn.contains(number) {
            guard let record = registry.byNumber[number], record.persistent, record.stack.inFlight == nil,
                  !record.applies.isApplying else { continue }
            switch backup {
            case .copy(let stack):
                record.stack = stack
                applySettings(to: record)
            case .onDisk:
                do {
                    record.stack = try store.storedHistory(of: record, settings: record.settings(config: config))
                } catch {
                    log.error("\(record.displayName): cannot read back its saved history: \(error)")
                    continue
                }
            }
            reverted.insert(number)
        }
        // What was announced of the taken-back changes is withdrawn; each
        // reverted stack announces what differs from the turn's start.
        queuedSignals.removeAll { signal in signal.takenBackWith.map(reverted.contains) ?? false }
        for number in reverted {
            guard let record = registry.byNumber[number] else { continue }
            record.announced = turnStartAnnounced[number] ?? record.announced
            announce(record)
        }
        for reply in replies {
            switch reply.durability {
            case .change(let record) where reverted.contains(record.number):
                reply.fail(ServiceError.storageFailed(failure.description).dbusError(stack: record.displayName))
            case .change(let record) where !record.persistent, .applied(let record) where !record.persistent:
                reply.send()
            case .change(let record), .applied(let record):
                reply.fail(ServiceError.notSaved(failure.description).dbusError(stack: record.displayName))
            case .bookkeeping:
                reply.send()
            }
        }
        announceFocus()
    }

}
