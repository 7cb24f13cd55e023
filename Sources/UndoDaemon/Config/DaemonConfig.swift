package import X11

/// Every setting of `undod.conf`, with the spec's defaults.
package struct DaemonConfig: Sendable, Equatable {
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
    /// `focus.strategy`: `auto`, `recent` or `x11`.
    package var focusStrategy: FocusStrategyName = .auto
    /// `focus.follows_push`: a push moves focus to its stack.
    package var focusFollowsPush = true
    /// `hotkey.undo`: the global undo key; nil (empty in the file) for none.
    package var hotkeyUndo: KeyCombination? = Self.key("Ctrl+Alt+z")
    /// `hotkey.redo`: the global redo key; nil (empty in the file) for none.
    package var hotkeyRedo: KeyCombination? = Self.key("Ctrl+Alt+Shift+z")
    /// `notify.enabled`: the feedback notification.
    package var notifyEnabled = true
    /// `notify.confirm`: ask before a triggered undo.
    package var notifyConfirm = false

    /// The built-in defaults.
    package init() {}

    /// A default key (the names are known good).
    private static func key(_ text: String) -> KeyCombination? {
        try? KeyCombination(parsing: text)
    }

    /// The names `focus.strategy` accepts.
    package enum FocusStrategyName: String, Sendable, CaseIterable {
        /// x11 where an EWMH window manager answers, else recent.
        case auto
        /// The most recently active stack.
        case recent
        /// The stack of the active X11 window's process.
        case x11
    }
}
