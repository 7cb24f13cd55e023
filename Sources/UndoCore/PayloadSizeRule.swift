/// A group (a merged group included) holds at most the stack's `MaxBytes`
/// payload bytes, else `PayloadTooLarge`.
public struct PayloadSizeRule: ValidationRule {
    /// The most payload bytes one group may hold.
    public var maxBytes: UInt64

    /// The rule for a stack that keeps at most `maxBytes` payload bytes.
    public init(maxBytes: UInt64) {
        self.maxBytes = maxBytes
    }

    /// Throws `payloadTooLarge` when the resulting group is over `maxBytes`.
    public func validate(_ group: GroupCandidate) throws(UndoError) {
        guard group.bytes <= maxBytes else { throw .payloadTooLarge(bytes: group.bytes, maxBytes: maxBytes) }
    }
}
