/// The spec's Merging rule: whether a push merges into the top undo group.
///
/// It does when its merge key is not empty and equals the top group's
/// (whose actions are in memory), no undo or redo has been committed since
/// that group was pushed or merged into (the top is mergeable), `now` is
/// within the merge window (the hint's, or the settings') after the
/// group's time, and the present state is not the clean state. A window of
/// 0 ms never merges; neither does a clock that went back. A merged group
/// keeps its id and takes the push's name, time and state tag.
struct MergeRule {
    /// The merge window when a push's hints give none (ms).
    let windowMilliseconds: UInt32

    /// Whether a push with `hints` at `now` merges into `top`, the top undo
    /// group, when the top `isMergeable` and the present state `isClean` or not.
    func merges(_ hints: PushHints, at now: Int64, into top: ActionGroup?, isMergeable: Bool, isClean: Bool) -> Bool {
        guard isMergeable, !hints.mergeKey.isEmpty, let top, top.isLoaded, top.mergeKey == hints.mergeKey, !isClean
        else { return false }
        let window = Int64(hints.mergeWindowMilliseconds ?? windowMilliseconds) * 1000
        let (elapsed, overflow) = now.subtractingReportingOverflow(top.time)
        return window > 0 && !overflow && elapsed >= 0 && elapsed <= window
    }
}
