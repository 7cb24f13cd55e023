/// A snapshot that no stack could have produced (a damaged store): the
/// reason says which invariant it breaks.
public struct SnapshotError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the snapshot, as a readable sentence.
    public var reason: String

    /// An error with the given reason.
    public init(reason: String) {
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}
