/// The source of group ids, shared by all stacks of a daemon so that ids are
/// non-zero, unique across stacks and strictly increasing.
///
/// A store resumes it by persisting `next` and creating the generator again
/// with that value, so that no id is ever reused while the store exists.
public struct GroupIDGenerator: Sendable, Hashable {
    /// The id the next new group will get; never 0.
    public private(set) var next: UInt64

    /// A generator whose first id is `next` (0 is taken as 1, since 0 is never an id).
    public init(next: UInt64 = 1) {
        self.next = max(next, 1)
    }

    /// Hands out the next id. `UInt64.max` is never handed out: once it is
    /// reached, every call throws `groupIDsExhausted`.
    public mutating func take() throws(UndoError) -> UInt64 {
        guard next < UInt64.max else { throw .groupIDsExhausted }
        defer { next += 1 }
        return next
    }
}
