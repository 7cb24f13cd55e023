import UndoCore

/// What the applier needs of the service, and all it may touch: the
/// payloads it sends, the settings' timeout, and where each outcome goes.
protocol ApplyHost: AnyObject {
    /// `apply.timeout_ms`.
    var applyTimeoutMilliseconds: UInt32 { get }
    /// Brings the payloads of the next group `direction` applies from the
    /// store; a refusal when they are damaged (the group and every one
    /// beyond it on that side are then gone; see `UndoService`).
    func loadActions(for direction: Direction, of record: StackRecord) -> ServiceError?
    /// An undo or redo was applied and committed in memory (with the
    /// groups it dropped off the undo side).
    func applied(_ record: StackRecord, _ move: CompletedMove)
    /// The group in flight was obsolete and is gone.
    func droppedObsolete(_ record: StackRecord, group: UInt64)
    /// Whether `record` is the focused stack now (a trigger's request
    /// that waited its turn goes ahead only then).
    func isFocused(_ record: StackRecord) -> Bool
    /// The apply in flight ended: settings that waited for it apply now.
    func settleSettings(of record: StackRecord)
}
