import Loop
import Logging
import UndoCore

/// The limits a stack lives under: its own or the config's levels and
/// bytes, and `limits.max_total_bytes` over all stacks (`HistoryEditor`);
/// a reload applies new defaults.
extension UndoService {
    /// A reloaded config: new defaults apply to every stack that uses them.
    package func reload(_ newSettings: ServiceSettings) {
        settings = newSettings
        store.budgetChanged(to: settings.maxTotalBytes)
        for record in registry.all where record.stack.inFlight == nil {
            let dropped = applySettings(to: record)
            changed(record, groups: dropped.map { GroupChange(id: $0) })
        }
        editor.enforceBudget()
        lifetimes.scheduleExpiry()
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
}
