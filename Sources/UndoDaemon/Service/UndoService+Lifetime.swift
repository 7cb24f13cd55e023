import SafeText
import UndoCore

/// A stack's life: adopted by a returning application, detached when its
/// owner leaves, deleted by `Close(true)`, `Forget` or `stacks.detached_ttl`.
extension UndoService {
    /// A connection left the bus: its stacks are detached and its
    /// subscription ends.
    /// Costs what the connection owned, whatever else the daemon holds.
    package func peerLeft(_ name: String) {
        announcer.unsubscribe(name)
        let owned = registry.stacks(ownedBy: name)
        guard !owned.isEmpty else { return }
        for record in owned { applier.ownerLeft(record) }
        registry.detachAll(ownedBy: name)
        for record in owned {
            log.debug("\(name) left the bus: \(record.displayName) is detached.")
            detached(record)
        }
        // Once, not once a stack: a client may have owned thousands (and
        // `announceFocus` looks once a turn, however many clients left).
        announceFocus()
    }

    /// Gives a detached stack to `caller`; returns the groups a mismatching
    /// state tag discarded.
    func adopt(_ record: StackRecord, caller: String, stateTag: String?) -> [GroupChange] {
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

    /// The owner is gone: the stack keeps its history for a later `Register`.
    /// Without `announcingFocus`, the caller announces the focus afterwards.
    func detach(_ record: StackRecord, announcingFocus: Bool = true) {
        applier.ownerLeft(record)
        registry.setOwner("", of: record)
        detached(record)
        if announcingFocus { announceFocus() }
    }

    /// What follows once a stack has lost its owner (its applies failed,
    /// the owner cleared): the detach time, stored and announced.
    private func detached(_ record: StackRecord) {
        record.windows = []
        record.detachedSince = clock.now
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
        expiryTimer = scheduler.schedule(afterMilliseconds: milliseconds) { [unowned self] in
            self.expiryTimer = nil
            self.scheduleExpiry()
        }
    }
}
