/// What the undo service needs of undod's settings, as plain values with
/// their defaults: the limits, the apply rules, merging, persistence,
/// detaching and focus. The daemon fills it from the config file.
package struct ServiceSettings: Sendable, Equatable {
    /// `limits.levels`: undo groups kept per stack; 0 = no count limit.
    package var levels: UInt32 = 100
    /// `limits.max_bytes`: payload bytes per stack, both sides together.
    package var maxBytes: UInt64 = 64 << 20
    /// `limits.max_total_bytes`: payload bytes of all stacks together.
    package var maxTotalBytes: UInt64 = 1 << 30
    /// `limits.stacks_per_client`: stacks one connection may own at once; 0 = no cap.
    package var stacksPerClient: UInt32 = 256
    /// `apply.timeout_ms`: how long an owner has to answer `Apply`.
    package var applyTimeoutMilliseconds: UInt32 = 5_000
    /// `apply.queue`: Undo/Redo calls that may wait per stack.
    package var applyQueue: UInt32 = 16
    /// `merge.window_ms`: the merge window.
    package var mergeWindowMilliseconds: UInt32 = 1_000
    /// `stacks.persist`: the default of the `persist` option.
    package var persist = true
    /// `stacks.detached_ttl`: how long a stack without an owner is kept, in ms.
    package var detachedTTLMilliseconds: UInt64 = 7 * 24 * 3_600_000
    /// `focus.follows_push`: a push moves focus to its stack.
    package var focusFollowsPush = true

    /// The built-in defaults.
    package init() {}
}
