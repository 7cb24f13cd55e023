/// The byte budget of all stacks together (`limits.max_total_bytes`): decides
/// how many groups each stack must drop so that the total fits, the least
/// recently active stacks losing their oldest groups first.
public struct GlobalBudget: Sendable, Hashable {
    /// The most payload bytes all stacks together may hold.
    public var maxTotalBytes: UInt64

    /// A budget of `maxTotalBytes`.
    public init(maxTotalBytes: UInt64) {
        self.maxTotalBytes = maxTotalBytes
    }

    /// One stack as the budget sees it.
    public struct Candidate<Sizes: Sequence<UInt64>> {
        /// The stack's number, which the cut names.
        public var stack: UInt64
        /// All payload bytes the stack holds, its group in flight included.
        public var bytes: UInt64
        /// When it was last active, in µs since the Unix epoch; smaller loses first.
        public var lastActive: Int64
        /// The sizes of the groups it may drop, in the order it drops them
        /// (`UndoStack.evictableGroupBytes`).
        public var evictable: Sizes

        /// A candidate with the given fields.
        public init(stack: UInt64, bytes: UInt64, lastActive: Int64, evictable: Sizes) {
            self.stack = stack
            self.bytes = bytes
            self.lastActive = lastActive
            self.evictable = evictable
        }
    }

    /// How many groups one stack must drop (with `UndoStack.dropOldest(_:)`).
    public struct Cut: Sendable, Hashable {
        /// The stack's number.
        public var stack: UInt64
        /// How many of its evictable groups to drop, from the first.
        public var groups: Int
        /// The payload bytes that frees.
        public var bytes: UInt64

        /// A cut with the given fields.
        public init(stack: UInt64, groups: Int, bytes: UInt64) {
            self.stack = stack
            self.groups = groups
            self.bytes = bytes
        }
    }

    /// The cuts that bring the stacks' total within the budget, least recently
    /// active stack first (ties: lower stack number first). Empty when the
    /// total already fits. When even dropping every evictable group is not
    /// enough, every evictable group is dropped.
    public func plan<Sizes>(_ stacks: [Candidate<Sizes>]) -> [Cut] {
        let total = stacks.reduce(UInt64(0)) { $0 + $1.bytes }
        guard total > maxTotalBytes else { return [] }
        var excess = total - maxTotalBytes
        var cuts: [Cut] = []
        let order = stacks.sorted { ($0.lastActive, $0.stack) < ($1.lastActive, $1.stack) }
        for candidate in order where excess > 0 {
            var cut = Cut(stack: candidate.stack, groups: 0, bytes: 0)
            for size in candidate.evictable {
                cut.groups += 1
                cut.bytes += size
                excess -= min(size, excess)
                if excess == 0 { break }
            }
            if cut.groups > 0 { cuts.append(cut) }
        }
        return cuts
    }
}

extension GlobalBudget.Candidate: Sendable where Sizes: Sendable {}
