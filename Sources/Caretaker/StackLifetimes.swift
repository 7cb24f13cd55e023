import Logging
import UndoCore

/// The end of a stack's life with its owner: detached when the owner leaves
/// the bus or closes it (`Close(false)`), deleted by `Close(true)`,
/// `Forget` or `stacks.detached_ttl`.
///
/// A connection that leaves is one step for whatever it owned
/// (`StackRegistry.ownerLeft`): its stacks are detached at once and their
/// applies failed, and each catches up with the rest of its detach (the
/// detach time stored, the change announced) in batches, lowest number
/// first, a few milliseconds apart, so that 10,000 stacks left at once do
/// not hold up the calls of everyone else. One timer looks for the next
/// detached stack to expire.
final class StackLifetimes {
    /// How many departed stacks one batch catches up with: a batch and the
    /// commit of its detach times take well under a millisecond.
    static let settleBatch = 64
    /// How long the loop is left to other calls between two batches (ms).
    static let settleInterval = 2

    /// The service, which owns this and outlives it.
    private unowned let service: UndoService
    /// The stacks whose owner left the bus, still to catch up with their
    /// detach.
    private var departed = StackNumberQueue()
    /// The timer of the next batch of `departed`.
    private var settleTimer: ScheduledTimer?
    /// The timer of the next detached stack to expire.
    private var expiryTimer: ScheduledTimer?

    /// The lifetimes of `service`'s stacks.
    init(of service: UndoService) {
        self.service = service
    }

    /// The connection `name` left the bus: its stacks are detached, their
    /// applies failed, and they catch up in batches.
    func peerLeft(_ name: String) {
        guard let owner = service.registry.ownerLeft(name, at: service.clock.now) else { return }
        service.applier.ownerLeft(owner)
        service.log.debug("\(name) left the bus: its "
            + "\(owner.stacks.count == 1 ? "stack is" : "\(owner.stacks.count) stacks are") detached.")
        departed.append(contentsOf: owner.stacks)
        settleLater()
        service.stackFocus.announce()
    }

    /// Catches up with a batch of departed owners' stacks (`settle`); sets a
    /// timer for the next batch while any wait.
    private func settleDepartures() {
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
        let registry = service.registry
        let batch = departed.first(limit) { registry.byNumber[$0]?.hasDepartedOwner ?? false }
        for number in batch { registry.byNumber[number].map(settle) }
        return !batch.isEmpty
    }

    private func settleLater() {
        guard settleTimer == nil else { return }
        settleTimer = service.scheduler.schedule(afterMilliseconds: Self.settleInterval) { [unowned self] in
            self.settleDepartures()
        }
    }

    /// The rest of a detach, for a stack whose owner left the bus: the
    /// detach time stored, the change announced (the served process too). Nothing if it caught up.
    func settle(_ record: StackRecord) {
        guard let since = record.ownership?.leftAt else { return }
        service.registry.setOwner("", of: record)
        record.detachedSince = since
        detached(record)
    }

    /// The owner closed it (`Close(false)`): the stack keeps its history for
    /// a later `Register`.
    func detach(_ record: StackRecord) {
        service.applier.ownerLeft(record)
        service.registry.setOwner("", of: record)
        record.detachedSince = service.clock.now
        detached(record)
        service.stackFocus.announce()
    }

    /// What follows once a stack has lost its owner (its applies failed,
    /// the owner cleared, the detach time set): the windows forgotten, the
    /// detach time stored, the change announced.
    private func detached(_ record: StackRecord) {
        record.windows = []
        record.servedProcess = nil
        // Its bytes and groups are as they were: only the detach time goes to the store.
        service.store.detachTimeChanged(record)
        service.announcer.changed(record)
        expireLater()
    }

    /// Deletes the stack and its history.
    func remove(_ record: StackRecord) {
        service.applier.ownerLeft(record)
        service.registry.remove(record)
        service.store.stackRemoved(number: record.number)
        service.announcer.removed(path: record.path, interfaces: service.publisher.withdraw(path: record.path))
        service.stackFocus.announce()
        service.log.debug("\(record.displayName) was deleted.")
    }

    /// Makes sure a timer will look for expired stacks: a stack detached now
    /// expires after every stack detached before it, so a running timer is
    /// early enough and this costs nothing more (the scan is the timer's).
    private func expireLater() {
        guard expiryTimer == nil else { return }
        scheduleExpiry()
    }

    /// Deletes detached stacks older than `stacks.detached_ttl` by the
    /// clock, and sets a timer for the next one to expire.
    func scheduleExpiry() {
        expiryTimer?.cancel()
        expiryTimer = nil
        let ttlMilliseconds = service.settings.detachedTTLMilliseconds
        let ttl = Int64(clamping: ttlMilliseconds).multipliedReportingOverflow(by: 1_000)
            .overflow ? Int64.max : Int64(clamping: ttlMilliseconds) * 1_000
        let now = service.clock.now
        var next: Int64?
        for record in service.registry.all {
            guard let since = record.detachedSince, !record.isAttached else { continue }
            let expiry = since.addingReportingOverflow(ttl).overflow ? Int64.max : since + ttl
            if expiry <= now {
                service.log.debug("\(record.displayName) had no owner for longer than stacks.detached_ttl: deleted.")
                remove(record)
            } else {
                next = min(next ?? expiry, expiry)
            }
        }
        guard let next else { return }
        let milliseconds = Int(min((next - now + 999) / 1_000, Int64(Int32.max)))
        expiryTimer = service.scheduler.schedule(afterMilliseconds: milliseconds) { [unowned self] in
            self.expiryTimer = nil
            self.scheduleExpiry()
        }
    }
}
