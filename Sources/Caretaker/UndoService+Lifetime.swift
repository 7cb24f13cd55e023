import Loop
import Logging
import SafeText
import UndoCore

/// A stack's life: adopted by a returning application, detached when its
/// owner leaves, deleted by `Close(true)`, `Forget` or `stacks.detached_ttl`.
extension UndoService {
    /// A connection left the bus: its stacks are detached and its
    /// subscription ends. Detached at once, in one step whatever it owned
    /// (`StackRegistry.ownerLeft`), and their applies failed; each stack
    /// catches up with the rest of its detach in batches, lowest number
    /// first, a few milliseconds apart (`settleDepartures`), so that 10,000
    /// stacks left at once do not hold up the calls of everyone else.
    package func peerLeft(_ name: String) {
        announcer.unsubscribe(name)
        guard let owner = registry.ownerLeft(name, at: clock.now) else { return }
        applier.ownerLeft(owner)
        log.debug("\(name) left the bus: its \(owner.stacks.count == 1 ? "stack is" : "\(owner.stacks.count) stacks are") detached.")
        departed.append(contentsOf: owner.stacks)
        settleLater()
        announceFocus()
    }

    /// Catches up with a batch of departed owners' stacks (`settle`); sets a
    /// timer for the next batch while any wait.
    func settleDepartures() {
        settleTimer = nil
        if settleDeparted(atMost: Self.settleBatch) { settleLater() }
    }

    /// Catches up with every departed owner's stacks now (on the way out).
    func settleAllDepartures() {
        settleTimer?.cancel()
        settleTimer = nil
        _ = settleDeparted(atMost: .max)
    }

    /// Settles up to `limit` of the departed stacks still to catch up,
    /// lowest number first; returns whether there were any.
    private func settleDeparted(atMost limit: Int) -> Bool {
        let batch = departed.first(limit) { [registry] in registry.byNumber[$0]?.hasDepartedOwner ?? false }
        for number in batch { registry.byNumber[number].map(settle) }
        return !batch.isEmpty
    }

    /// How many departed stacks one batch catches up with: a batch and the
    /// commit of its detach times take well under a millisecond.
    package static let settleBatch = 64
    /// How long the loop is left to other calls between two batches.
    package static let settleInterval = 2

    private func settleLater() {
        guard settleTimer == nil else { return }
        settleTimer = scheduler.schedule(afterMilliseconds: Self.settleInterval) { [unowned self] in
            self.settleDepartures()
        }
    }

    /// The rest of a detach, for a stack whose owner left the bus: the
    /// detach time stored, the change announced. Nothing if it caught up.
    func settle(_ record: StackRecord) {
        guard let since = record.ownership?.leftAt else { return }
        registry.setOwner("", of: record)
        record.detachedSince = since
        detached(record)
    }

    /// Refuses the adoption of detached `record` by a program of another
    /// origin than the one that made it (`NotAllowed`, naming that
    /// program): its payloads are that program's data. Allowed all the
    /// same when the caller proves it holds the document, by the state tag
    /// the history is at (`stateTag`, not empty), and for a stack stored
    /// before undod kept origins, or where undod cannot tell (nil): such a
    /// stack takes its adopter's origin.
    func requireAdoptable(_ record: StackRecord, by origin: StackOrigin?, stateTag: String?) throws(ServiceError) {
        guard let made = record.origin, made != origin else { return }
        if let stateTag, !stateTag.isEmpty, stateTag == record.stack.presentStateTag { return }
        log.notice("\(record.displayName): adoption by \(origin?.description ?? "an unknown program") refused; "
            + "it belongs to \(made.description).")
        throw .foreignOrigin(made: made.description, caller: origin?.description)
    }

    /// Refuses an app id a sandboxed caller may not use: a Flatpak app
    /// registers only its own application id or names beneath it
    /// (`InvalidAppId`).
    static func requireSandboxAllows(_ appId: String, origin: StackOrigin?) throws(ServiceError) {
        guard let origin, origin.kind == .flatpak else { return }
        guard appId != origin.program, !appId.hasPrefix(origin.program + ".") else { return }
        throw .sandboxedAppId(appId, sandbox: origin.program)
    }

    /// Gives a detached stack to `caller`; returns the groups a mismatching
    /// state tag discarded.
    func adopt(_ record: StackRecord, caller: String, stateTag: String?) -> [GroupChange] {
        settle(record)
        var discarded: [GroupChange] = []
        if let stateTag, !stateTag.isEmpty, stateTag != record.stack.presentStateTag {
            log.notice("\(record.displayName): the history no longer matches the document "
                + "(state tag \(CallerText.quoted(stateTag)) ≠ \(CallerText.quoted(record.stack.presentStateTag))), "
                + "so it starts empty.")
            discarded = Self.allGroups(of: record.stack)
            record.stack = UndoStack(settings: record.stack.settings, baseStateTag: stateTag)
        }
        registry.setOwner(caller, of: record)
        record.detachedSince = nil
        return discarded
    }

    /// The owner closed it (`Close(false)`): the stack keeps its history for
    /// a later `Register`.
    func detach(_ record: StackRecord) {
        applier.ownerLeft(record)
        registry.setOwner("", of: record)
        record.detachedSince = clock.now
        detached(record)
        announceFocus()
    }

    /// What follows once a stack has lost its owner (its applies failed,
    /// the owner cleared, the detach time set): the windows forgotten, the
    /// detach time stored, the change announced.
    private func detached(_ record: StackRecord) {
        record.windows = []
        // Its bytes and groups are as they were: only the detach time goes to the store.
        store.detachTimeChanged(record)
        announcer.changed(record)
        expireLater()
    }

    /// Deletes the stack and its history.
    func remove(_ record: StackRecord) {
        applier.ownerLeft(record)
        registry.remove(record)
        store.stackRemoved(number: record.number)
        announcer.removed(path: record.path, interfaces: publisher.withdraw(path: record.path))
        announceFocus()
        log.debug("\(record.displayName) was deleted.")
    }

    /// Makes sure a timer will look for expired stacks: a stack detached now
    /// expires after every stack detached before it, so a running timer is
    /// early enough and this costs nothing more (the scan is the timer's).
    func expireLater() {
        guard expiryTimer == nil else { return }
        scheduleExpiry()
    }

    /// Deletes detached stacks older than `stacks.detached_ttl` by the
    /// clock, and sets a timer for the next one to expire.
    func scheduleExpiry() {
        expiryTimer?.cancel()
        expiryTimer = nil
        let ttl = Int64(clamping: settings.detachedTTLMilliseconds).multipliedReportingOverflow(by: 1_000)
            .overflow ? Int64.max : Int64(clamping: settings.detachedTTLMilliseconds) * 1_000
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
        expiryTimer = scheduler.schedule(afterMilliseconds: milliseconds) { [unowned self] in
            self.expiryTimer = nil
            self.scheduleExpiry()
        }
    }
}
