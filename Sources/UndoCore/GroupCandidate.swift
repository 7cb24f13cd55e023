/// A group about to be pushed, as the validation rules see it.
public struct GroupCandidate: Sendable, Hashable {
    /// The name the push gives.
    public var name: String
    /// How many actions the push carries.
    public var actionCount: Int
    /// The payload bytes of the group that would result: the pushed actions
    /// alone, or the top group with them when the push merges.
    public var bytes: UInt64

    /// A candidate with the given fields.
    public init(name: String, actionCount: Int, bytes: UInt64) {
        self.name = name
        self.actionCount = actionCount
        self.bytes = bytes
    }
}
