import Loop
import Logging
import UndoCore

/// The limits a stack lives under: its own or the config's levels and
/// bytes, and `limits.max_total_bytes` over all stacks; a reload applies new
/// defaults.
extension UndoService {
    /// A reloaded config: new defaults apply to every stack that uses them.
    package func reload(_ newSettings: ServiceSettings) {
        settings = newSettings
        store.budgetChanged(to: settings.maxTotalBytes)
        for record in registry.all where record.stack.inFlight == nil {
            let dropped = applySettings(to: record)
            changed(record, groups: dropped.map { GroupChange(id: $0) })
        }
        enforceBudget()
        scheduleExpiry()
    }

    /// Puts the settings in force on `record`; returns the groups dropped.
    @discardableResult
    func applySettings(to record: StackRecord) -> [UInt64] {
        let wanted = record.stackSettings(under: settings)
        guard wanted != record.stack.settings else { return [] }
        return (try? record.stack.setSettings(wanted)) ?? []
    }

    /// Puts the settings in force on `record` once no apply is in flight (a
    /// reload skips stacks that are busy).
    package func settleSettings(of record: StackRecord) {
        guard record.stack.inFlight == nil, record.stackSettings(under: settings) != record.stack.settings else { return }
        let dropped = applySettings(to: record)
        changed(record, groups: dropped.map { GroupChange(id: $0) })
    }

    /// `limits.max_total_bytes`: the least recently active stacks lose their
    /// oldest groups first. A push never loses the group it just made:
    /// `protecting`'s top group is left out of what may go.
    func enforceBudget(protecting pushed: StackRecord? = nil) {
        guard registry.totalBytes > settings.maxTotalBytes else { return }
        let candidates = registry.all.map { record -> GlobalBudget.Candidate<[UInt64]> in
            var evictable = Array(record.stack.evictableGroupBytes)
            if record === pushed, record.stack.redoDepth == 0, !evictable.isEmpty { evictable.removeLast() }
            return GlobalBudget.Candidate(stack: record.number, bytes: record.stack.bytes,
                                          lastActive: Int64(clamping: record.activity), evictable: evictable)
        }
        for cut in GlobalBudget(maxTotalBytes: settings.maxTotalBytes).plan(candidates) where cut.groups > 0 {
            guard let record = registry.byNumber[cut.stack] else { continue }
            turn.willChange(record)
            let dropped = record.stack.dropOldest(cut.groups)
            log.debug("\(record.displayName) lost \(cut.groups) old groups to limits.max_total_bytes.")
            changed(record, groups: dropped.map { GroupChange(id: $0) })
        }
    }
}
