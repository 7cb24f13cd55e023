import Loop
import Logging
import SafeText
package import Undo1
import UndoCore
import UndoStore

/// `Register`: a new stack, the owner's own again, or a detached one
/// adopted by the program that made it.
extension UndoService {
    /// `Register`: opens, re-opens or adopts the caller's stack; answers with it.
    /// `origin` is the caller's program (nil where undod could not tell):
    /// a detached stack goes only to its own (see `adoptionAllowed`).
    package func register(caller: String, appId: String, options: RegistrationOptions, origin: StackOrigin?,
                         reply: @escaping (Result<StackRecord, ServiceError>) -> Void) {
        answer(.bookkeeping, reply) { () throws(ServiceError) in
            try register(caller: caller, appId: appId, options: options, origin: origin)
        }
    }

    private func register(caller: String, appId: String, options: RegistrationOptions,
                          origin: StackOrigin?) throws(ServiceError) -> StackRecord {
        do { try AppIdRule().validate(appId) } catch { throw .model(error) }
        try OptionRules.check(options)
        try Self.requireSandboxAllows(appId, origin: origin)
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
                do { try store.loadAllActions(of: existing) } catch { throw .storageFailed(error.description) }
            }
            if !existing.isAttached {
                changes = adopt(existing, caller: caller, stateTag: options.stateTag)
                if let origin { existing.origin = origin }
            }
            record = existing
        } else {
            try requireRoomForOneMore(caller)
            try requireReserved(stacks: 1, groups: 0)
            record = StackRecord(
                number: registry.takeNumber(), appId: appId, document: document, title: appId,
                requestedLevels: 0, requestedMaxBytes: 0, persistent: canPersist && settings.persist, globalTrigger: true,
                stack: UndoStack(baseStateTag: options.stateTag ?? ""))
            record.origin = origin
            registry.add(record, owner: caller)
            isNew = true
        }
        if let title = options.title { record.title = title.isEmpty ? appId : title }
        if let limit = options.limit { record.requestedLevels = limit }
        if let maxBytes = options.maxBytes { record.requestedMaxBytes = maxBytes }
        if let persist = options.persist { record.persistent = canPersist && persist }
        if let globalTrigger = options.globalTrigger { record.globalTrigger = globalTrigger }
        if let windows = options.windowIDs { record.windows = windows }
        changes += applySettings(to: record).map { GroupChange(id: $0) }
        noteActivity(of: record)
        // Published once complete: what InterfacesAdded shows is the stack as registered.
        if isNew { publish(record) }
        changed(record, groups: changes)
        log.debug("\(caller) registered \(record.displayName) for \(appId)\(document.isEmpty ? "" : ":\(CallerText.escaped(document))").")
        return record
    }
}
