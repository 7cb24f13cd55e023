import UndoCore

/// The applier's side of the service: what an undo or redo in flight needs
/// and where its outcome goes.
extension UndoService: ApplyHost {
    /// `apply.timeout_ms`.
    var applyTimeoutMilliseconds: UInt32 { config.applyTimeoutMilliseconds }

    /// Brings the top groups' actions from the store; a failure is logged,
    /// and the undo, redo or merge that needed them then refuses.
    func loadTopActions(of record: StackRecord) {
        do {
            try store.loadTopActions(of: record)
        } catch {
            log.error("\(record.displayName): cannot read payloads from the history store: \(error)")
        }
    }

    /// An undo or redo was applied by the owner and committed in memory.
    func applied(_ record: StackRecord, _ outcome: ApplyOutcome, dropped: [UInt64]) {
        journal.noteApplied(record)
        changed(record, groups: ([outcome.group] + dropped).map { GroupChange(id: $0) })
        announcer.applied(record, outcome)
    }

    /// The owner said the group in flight can never be applied: it is gone,
    /// and the group below it took over its state tag.
    func droppedObsolete(_ record: StackRecord, group: UInt64) {
        let below = record.stack.topUndoGroup.map { [GroupChange(id: $0.id)] } ?? []
        changed(record, groups: [GroupChange(id: group)] + below)
    }
}
