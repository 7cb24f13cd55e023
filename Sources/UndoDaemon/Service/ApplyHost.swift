import UndoCore

/// What the applier needs of the service, and all it may touch: the
/// payloads it sends, the settings' timeout, and where each outcome goes.
protocol ApplyHost: AnyObject {
    /// `apply.timeout_ms`.
    var applyTimeoutMilliseconds: UInt32 { get }
    /// Brings the top groups' payloads from the store (see `UndoService`).
    func loadTopActions(of record: StackRecord)
    /// An undo or redo was applied and committed in memory.
    func applied(_ record: StackRecord, _ outcome: ApplyOutcome, dropped: [UInt64])
    /// The group in flight was obsolete and is gone.
    func droppedObsolete(_ record: StackRecord, group: UInt64)
    /// The apply in flight ended: settings that waited for it apply now.
    func settleSettings(of record: StackRecord)
}
