import Logging
import SafeText
import Undo1
import UndoCore
import UndoStore

/// `Register` for the service: a new stack, the owner's own again, or a
/// detached one adopted, and who may adopt it. A detached stack goes to the
/// program that made it (its origin), or to a caller who proves it holds
/// the document (the state tag the history is at); a sandboxed caller
/// registers only its own application id; a state tag that no longer
/// matches starts the history empty.
final class Registrar {
    /// The service, which owns this and outlives it.
    private unowned let service: UndoService

    /// The registrar of `service`'s stacks.
    init(of service: UndoService) {
        self.service = service
    }

    /// Opens, re-opens or adopts `caller`'s stack for `appId` with
    /// `options`; `origin` is the caller's program (nil where undod could
    /// not tell); `served` is the process `options.process` names, as the
    /// daemon found it (nil for 0: none).
    func register(caller: String, appId: String, options: RegistrationOptions,
                  origin: StackOrigin?, served: ServedProcess? = nil) throws(ServiceError) -> StackRecord {
        do { try AppIdRule().validate(appId) } catch { throw .model(error) }
        try OptionRules.check(options)
        try Self.requireSandboxAllows(appId, origin: origin)
        let registry = service.registry
        let document = options.document ?? ""
        let record: StackRecord
        var changes: [GroupChange] = []
        var isNew = false
        if let existing = registry.stack(appId: appId, document: document) {
            if existing.isAttached, existing.owner != caller { throw .alreadyOwned(owner: existing.owner) }
            if !existing.isAttached {
                try requireAdoptable(existing, by: origin, stateTag: options.stateTag)
                try requireRoomForOneMore(caller)
            }
            if let inFlight = existing.stack.inFlight, options.changesSomething {
                throw .model(.busy(inFlight.direction))
            }
            if existing.persistent, options.persist == false {
                // Leaving the disk: every payload must be in memory first.
                do { try service.store.loadAllActions(of: existing) } catch { throw .storageFailed(error.description) }
            }
            if !existing.isAttached {
                changes = adopt(existing, caller: caller, stateTag: options.stateTag)
                if let origin { existing.origin = origin }
            }
            record = existing
        } else {
            try requireRoomForOneMore(caller)
            try service.requireReserved(stacks: 1, groups: 0)
            record = StackRecord(
                number: registry.takeNumber(), appId: appId, document: document, title: appId,
                requestedLevels: 0, requestedMaxBytes: 0, persistent: service.canPersist && service.settings.persist,
                globalTrigger: true, stack: UndoStack(baseStateTag: options.stateTag ?? ""))
            record.origin = origin
            registry.add(record, owner: caller)
            isNew = true
        }
        if let title = options.title { record.title = title.isEmpty ? appId : title }
        if let limit = options.limit { record.requestedLevels = limit }
        if let maxBytes = options.maxBytes { record.requestedMaxBytes = maxBytes }
        if let persist = options.persist { record.persistent = service.canPersist && persist }
        if let globalTrigger = options.globalTrigger { record.globalTrigger = globalTrigger }
        if let windows = options.windowIDs { record.windows = windows }
        if options.process != nil { record.servedProcess = served }
        changes += service.applySettings(to: record).map { GroupChange(id: $0) }
        service.stackFocus.noteActivity(of: record)
        // Published once complete: what InterfacesAdded shows is the stack as registered.
        if isNew { service.publish(record) }
        service.changed(record, groups: changes)
        service.log.debug(.stackRegistered, "\(caller) registered \(record.displayName) for "
            + "\(appId)\(document.isEmpty ? "" : ":\(CallerText.escaped(document))").")
        return record
    }

    /// `limits.stacks_per_client`: `caller` may own one stack more.
    private func requireRoomForOneMore(_ caller: String) throws(ServiceError) {
        let cap = service.settings.stacksPerClient
        guard cap > 0, service.registry.count(ownedBy: caller) >= Int(cap) else { return }
        throw .tooManyStacks(limit: cap)
    }

    /// Refuses the adoption of detached `record` by a program of another
    /// origin than the one that made it (`NotAllowed`, naming that
    /// program): its payloads are that program's data. Allowed all the
    /// same when the caller proves it holds the document, by the state tag
    /// the history is at (`stateTag`, not empty), and for a stack stored
    /// before undod kept origins, or where undod cannot tell (nil): such a
    /// stack takes its adopter's origin.
    private func requireAdoptable(_ record: StackRecord, by origin: StackOrigin?,
                                  stateTag: String?) throws(ServiceError) {
        guard let made = record.origin, made != origin else { return }
        if let stateTag, !stateTag.isEmpty, stateTag == record.stack.presentStateTag { return }
        service.log.notice(.adoptionRefused, "\(record.displayName): adoption by \(origin?.description ?? "an unknown program") "
            + "refused; it belongs to \(made.description).")
        throw .foreignOrigin(made: made.description, caller: origin?.description)
    }

    /// Refuses an app id a sandboxed caller may not use: a Flatpak app
    /// registers only its own application id or names beneath it
    /// (`InvalidAppId`).
    private static func requireSandboxAllows(_ appId: String, origin: StackOrigin?) throws(ServiceError) {
        guard let origin, origin.kind == .flatpak else { return }
        guard appId != origin.program, !appId.hasPrefix(origin.program + ".") else { return }
        throw .sandboxedAppId(appId, sandbox: origin.program)
    }

    /// Gives a detached stack to `caller`; returns the groups a mismatching
    /// state tag discarded.
    private func adopt(_ record: StackRecord, caller: String, stateTag: String?) -> [GroupChange] {
        service.lifetimes.settle(record)
        var discarded: [GroupChange] = []
        if let stateTag, !stateTag.isEmpty, stateTag != record.stack.presentStateTag {
            service.log.notice(.historyDiscarded, "\(record.displayName): the history no longer matches the document "
                + "(state tag \(CallerText.quoted(stateTag)) ≠ \(CallerText.quoted(record.stack.presentStateTag))), "
                + "so it starts empty.")
            discarded = UndoService.allGroups(of: record.stack)
            record.stack = UndoStack(settings: record.stack.settings, baseStateTag: stateTag)
        }
        service.registry.setOwner(caller, of: record)
        record.detachedSince = nil
        return discarded
    }
}
