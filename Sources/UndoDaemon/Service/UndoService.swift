import DBus
import UndoCore

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
    public let registry = StackRegistry()
    /// The focus strategy in effect.
    public let focus: any FocusStrategy
    /// Where history is kept.
    public let store: any HistoryStore
    /// The wall clock for group times.
    let clock: any UndoClock
    /// The daemon's version, as the `Version` property reports it.
    public let version: String

    private var applier: Applier?
    private var announcedFocus = "/"
    private var heldReplies: [() -> Void] = []
    private var ttlTimer: EventLoop.Token?

    /// Wires a service to a connection; `start` exports it.
    public init(connection: Connection, config: DaemonConfig, log: Log, store: any HistoryStore,
                focus: any FocusStrategy, clock: any UndoClock, version: String) {
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
        let counters = try store.loadCounters()
        registry.nextNumber = counters.nextStackNumber
        registry.groupIDs = GroupIDGenerator(next: counters.nextGroupID)
        objects.export(path: Undo1Interfaces.managerPath, interfaces: [ManagerObject.interface(for: self)])
        objects.enableObjectManager(at: Undo1Interfaces.managerPath)
        for record in try store.loadStacks() {
            registry.add(record)
            export(record)
        }
        connection.onNameOwnerChanged { [unowned self] name, _, newOwner in
            if newOwner.isEmpty, name.hasPrefix(":") { self.ownerLeft(name) }
        }
        _ = loop.addTurnEndHook { [unowned self] in self.endTurn() }
        scheduleExpiry()
    }

    // MARK: Manager

    /// `Register`: opens, re-opens or adopts the caller's stack.
    public func register(caller: String, appId: String, options raw: [String: DBusValue]) throws(ServiceError) -> StackRecord {
        do { try AppIdRule().validate(appId) } catch { throw .model(error) }
        let options = try RegisterOptions(raw)
        let document = options.document ?? ""
        let record: StackRecord
        if let existing = registry.stack(appId: appId, document: document) {
            if existing.isAttached, existing.owner != caller { throw .alreadyOwned(owner: existing.owner) }
            if let inFlight = existing.stack.inFlight, options.changesSomething {
                throw .model(.busy(inFlight.direction))
            }
            if !existing.isAttached {
                adopt(existing, caller: caller, stateTag: options.stateTag)
            }
            record = existing
        } else {
            record = StackRecord(
                number: registry.takeNumber(), appId: appId, document: document, title: appId, owner: caller,
                requestedLevels: 0, requestedMaxBytes: 0, persistent: config.persist, globalTrigger: true,
                stack: UndoStack())
            registry.add(record)
        }
        if let title = options.title { record.title = title.isEmpty ? appId : title }
        if let limit = options.limit { record.requestedLevels = limit }
        if let maxBytes = options.maxBytes { record.requestedMaxBytes = maxBytes }
        if let persist = options.persist { record.persistent = persist }
        if let globalTrigger = options.globalTrigger { record.globalTrigger = globalTrigger }
        applySettings(to: record)
        focus.noteActivity(of: record, in: registry)
        if !objects.isExported(record.path) { export(record) }
        changed(record)
        log.debug("\(caller) registered \(record.displayName) for \(appId)\(document.isEmpty ? "" : ":\(document)").")
        return record
    }

    private func adopt(_ record: StackRecord, caller: String, stateTag: String?) {
        if let stateTag, !stateTag.isEmpty, stateTag != record.stack.presentStateTag {
            log.notice("\(record.displayName): the history no longer matches the document "
                + "(state tag “\(stateTag)” ≠ “\(record.stack.presentStateTag)”), so it starts empty.")
            record.stack = UndoStack(settings: record.stack.settings)
        }
        record.owner = caller
        record.detachedSince = nil
        scheduleExpiry()
    }

    /// `UndoFocused`/`RedoFocused`, and every trigger: undo or redo on the
    /// focused stack, answering with the stack it acted on.
    public func applyFocused(_ direction: Direction, caller: String?,
                             completion: @escaping (StackRecord?, Result<ApplyOutcome, ServiceError>) -> Void) {
        guard let record = focus.focusedStack(in: registry) else {
            completion(nil, .failure(.noFocusedStack))
            return
        }
        apply(direction, on: record, caller: caller) { completion(record, $0) }
    }

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
    public var focusedPath: String { focus.focusedStack(in: registry)?.path ?? "/" }

    // MARK: Stack

    /// `Push`/`PushGroup`.
    public func push(_ record: StackRecord, caller: String, name: String, actions: [Action],
                     hints raw: [String: DBusValue]) throws(ServiceError) -> PushResult {
        try requireOwner(record, caller)
        let hints = PushHints(
            mergeKey: try OptionReader.string(raw, "merge_key") ?? "",
            mergeWindowMilliseconds: try OptionReader.uint32(raw, "merge_window_ms"),
            stateTag: try OptionReader.string(raw, "state_tag") ?? "")
        let result: PushResult
        do {
            result = try record.stack.push(name: name, actions: actions, hints: hints, now: clock.now,
                                           ids: &registry.groupIDs)
        } catch {
            throw .model(error)
        }
        if config.focusFollowsPush { focus.noteActivity(of: record, in: registry) }
        enforceBudget()
        changed(record)
        objects.emitSignal(path: record.path, interface: Undo1Interfaces.stack.name, member: "Pushed",
                           arguments: [.uint64(result.group), .string(name), .bool(result.merged)])
        return result
    }

    /// `Undo`/`Redo` on a named stack: queued behind any apply in flight.
    public func apply(_ direction: Direction, on record: StackRecord, caller: String?,
                      completion: @escaping (Result<ApplyOutcome, ServiceError>) -> Void) {
        if let caller, caller != record.owner, !record.globalTrigger {
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
        applier?.enqueue(ApplyQueue.Request(direction: direction, caller: caller, completion: completion), on: record)
    }

    /// `SetClean`.
    public func setClean(_ record: StackRecord, caller: String) throws(ServiceError) {
        try requireOwner(record, caller)
        do { try record.stack.setClean() } catch { throw .model(error) }
        changed(record)
    }

    /// `Clear`.
    public func clear(_ record: StackRecord, caller: String) throws(ServiceError) {
        try requireOwner(record, caller)
        do { try record.stack.clear() } catch { throw .model(error) }
        changed(record)
    }

    /// `Activate`.
    public func activate(_ record: StackRecord, caller: String) throws(ServiceError) {
        try requireOwner(record, caller)
        focus.noteActivity(of: record, in: registry)
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

    private func requireOwner(_ record: StackRecord, _ caller: String) throws(ServiceError) {
        guard record.isAttached, caller == record.owner else { throw .notOwner(caller: caller) }
    }

    // MARK: Applies (called by the Applier)

    /// An undo or redo was applied by the owner and committed.
    func applied(_ record: StackRecord, _ outcome: ApplyOutcome) {
        changed(record)
        objects.emitSignal(path: record.path, interface: Undo1Interfaces.stack.name, member: "Applied",
                           arguments: [.string(outcome.direction.wireName), .uint64(outcome.group),
                                       .string(outcome.name)])
    }

    /// Something about `record` changed (history, owner, settings): store it
    /// and announce what differs.
    func changed(_ record: StackRecord) {
        store.stackChanged(record, counters: counters)
        announce(record)
        announceFocus()
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
        record.detachedSince = clock.now
        changed(record)
        scheduleExpiry()
    }

    private func remove(_ record: StackRecord) {
        applier?.ownerLeft(record)
        registry.remove(record)
        store.stackRemoved(number: record.number)
        objects.unexport(path: record.path)
        announceFocus()
        log.debug("\(record.displayName) was deleted.")
    }

    /// Removes detached stacks older than `stacks.detached_ttl`, and sets a
    /// timer for the next one to expire.
    private func scheduleExpiry() {
        if let ttlTimer { loop.remove(ttlTimer) }
        ttlTimer = nil
        let ttl = Int64(clamping: config.detachedTTLMilliseconds) * 1_000
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
            applySettings(to: record)
            changed(record)
        }
        enforceBudget()
        scheduleExpiry()
    }

    private func applySettings(to record: StackRecord) {
        let settings = record.settings(config: config)
        guard settings != record.stack.settings else { return }
        _ = try? record.stack.setSettings(settings)
    }

    /// `limits.max_total_bytes`: the least recently active stacks lose their
    /// oldest groups first.
    private func enforceBudget() {
        guard registry.totalBytes > config.maxTotalBytes else { return }
        let records = registry.all
        let candidates = records.map {
            GlobalBudget.Candidate(stack: $0.number, bytes: $0.stack.bytes, lastActive: Int64(clamping: $0.activity),
                                   evictable: $0.stack.evictableGroupBytes)
        }
        for cut in GlobalBudget(maxTotalBytes: config.maxTotalBytes).plan(candidates) where cut.groups > 0 {
            guard let record = registry.byNumber[cut.stack] else { continue }
            _ = record.stack.dropOldest(cut.groups)
            log.debug("\(record.displayName) lost \(cut.groups) old groups to limits.max_total_bytes.")
            changed(record)
        }
    }

    // MARK: Announcements and replies

    private var counters: StoreCounters {
        StoreCounters(nextStackNumber: registry.nextNumber, nextGroupID: registry.groupIDs.next)
    }

    private func export(_ record: StackRecord) {
        record.announced = record.properties
        objects.export(path: record.path, interfaces: [StackObject.interface(for: record, service: self)])
    }

    private func announce(_ record: StackRecord) {
        guard objects.isExported(record.path) else { return }
        let now = record.properties
        let changedNames = now.keys.filter { now[$0] != record.announced[$0] }.sorted()
        record.announced = now
        objects.propertiesChanged(path: record.path, interface: Undo1Interfaces.stack.name, names: changedNames)
    }

    private func announceFocus() {
        let path = focusedPath
        guard path != announcedFocus else { return }
        announcedFocus = path
        objects.propertiesChanged(path: Undo1Interfaces.managerPath, interface: Undo1Interfaces.manager.name,
                                  names: ["FocusedStack"])
    }

    /// Sends a reply once what it reports is stored: at once when nothing
    /// waits for a commit, else at the end of this turn, after the commit.
    func deliver(_ send: @escaping () -> Void) {
        if store.hasPendingChanges { heldReplies.append(send) } else { send() }
    }

    private func endTurn() {
        if store.hasPendingChanges {
            do {
                try store.commit()
            } catch {
                log.error("The history store could not save: \(error).")
            }
        }
        let replies = heldReplies
        heldReplies.removeAll()
        for send in replies { send() }
    }
}
