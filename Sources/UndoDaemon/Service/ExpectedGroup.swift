/// A group as a notification offered it: the one that must move, unchanged.
public struct ExpectedGroup: Sendable, Equatable {
    /// The group's id.
    public var id: UInt64
    /// Its name, for the sentence when it is no longer next.
    public var name: String
    /// When it was pushed or last merged into (µs): a merge since changes it.
    public var time: Int64
}
