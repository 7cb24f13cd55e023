/// One undoable change, as the application recorded it: two opaque payloads
/// that only the application understands (the memento).
public struct Action: Sendable, Hashable {
    /// The bytes the application applies to revert the change.
    public var undo: [UInt8]
    /// The bytes the application applies to make the change again.
    public var redo: [UInt8]

    /// An action with the given undo and redo payloads.
    public init(undo: [UInt8], redo: [UInt8]) {
        self.undo = undo
        self.redo = redo
    }

    /// The payload bytes this action holds: its undo and redo byte counts added.
    public var byteCount: UInt64 {
        UInt64(undo.count) + UInt64(redo.count)
    }

    /// The least an action counts for in `Bytes`, `MaxBytes` and the global
    /// budget, so that empty actions are not free.
    public static let minimumChargedBytes: UInt64 = 16

    /// What this action counts for in the limits: its payload bytes, at
    /// least `minimum`.
    public func chargedBytes(minimum: UInt64 = minimumChargedBytes) -> UInt64 {
        max(byteCount, minimum)
    }
}
