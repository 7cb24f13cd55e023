/// The limits one stack enforces, already resolved from its `Register` options and the config.
public struct StackSettings: Sendable, Hashable {
    /// Most undo groups kept (`limits.levels`); 0 means no count limit.
    public var levels: UInt32
    /// Most payload bytes the stack keeps, undo and redo sides together (`limits.max_bytes`).
    public var maxBytes: UInt64
    /// How long after a group's last push or merge a push with its merge key may still merge (`merge.window_ms`).
    public var mergeWindowMilliseconds: UInt32
    /// The least one action counts for in the byte limits, so that empty
    /// actions are not free (the contract's 16). A group keeps what it was
    /// charged when it was pushed.
    public var minimumActionBytes: UInt64

    /// Settings with the given limits.
    public init(levels: UInt32, maxBytes: UInt64, mergeWindowMilliseconds: UInt32,
                minimumActionBytes: UInt64 = Action.minimumChargedBytes) {
        self.levels = levels
        self.maxBytes = maxBytes
        self.mergeWindowMilliseconds = mergeWindowMilliseconds
        self.minimumActionBytes = minimumActionBytes
    }

    /// The built-in defaults of the config: 100 levels, 64 MiB, a 1000 ms merge window.
    public static let defaults = StackSettings(levels: 100, maxBytes: 64 << 20, mergeWindowMilliseconds: 1000)
}
