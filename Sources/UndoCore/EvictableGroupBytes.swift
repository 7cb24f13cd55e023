/// The payload sizes of a stack's groups in the order a global budget drops
/// them: undo groups oldest first, then redo groups farthest from the present
/// first; the group in flight is never among them.
public struct EvictableGroupBytes: Sequence, Sendable {
    /// The undo groups that may be dropped, oldest first.
    let undo: ArraySlice<ActionGroup>
    /// The redo groups that may be dropped, farthest first.
    let redo: ArraySlice<ActionGroup>

    /// How many groups may be dropped.
    public var count: Int { undo.count + redo.count }

    /// Walks the sizes in drop order.
    public func makeIterator() -> Iterator {
        Iterator(undo: undo.makeIterator(), redo: redo.makeIterator())
    }

    /// Walks the sizes in drop order.
    public struct Iterator: IteratorProtocol {
        /// The undo groups not yet walked.
        var undo: ArraySlice<ActionGroup>.Iterator
        /// The redo groups not yet walked.
        var redo: ArraySlice<ActionGroup>.Iterator

        /// The next group's bytes, as the limits count them.
        public mutating func next() -> UInt64? {
            (undo.next() ?? redo.next())?.chargedBytes
        }
    }
}
