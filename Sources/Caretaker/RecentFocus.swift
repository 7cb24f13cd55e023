/// The `recent` strategy: the stack whose owner most recently registered,
/// activated or pushed and has not deactivated since, unless `SetFocus`
/// pinned another since. When the focused stack detaches, closes or
/// deactivates, focus falls to the most recently active remaining one; when
/// none is active, nothing is focused.
package final class RecentFocus: FocusStrategy {
    private var pinned: UInt64?

    /// A strategy with nothing pinned.
    package init() {}

    /// `recent`.
    package var name: String { "recent" }

    /// Never called: with `recent`, only the service's own calls move focus.
    package var onChange: (() -> Void)?

    /// The pinned stack while it qualifies, else the most recently active one.
    package func focusedStack(in registry: StackRegistry) -> StackRecord? {
        if let pinned, let record = registry.byNumber[pinned], record.isFocusable { return record }
        return registry.mostRecentlyActive { !$0.isDeactivated }
    }

    /// Why nothing is focused: no application with undo history is active.
    package func reasonForNoFocus(in registry: StackRegistry) -> NoFocus? {
        .unknown("no application with undo history is active; the focus strategy is recent, a guess")
    }

    /// Pins focus to `record`.
    package func pin(_ record: StackRecord) {
        pinned = record.number
    }

    /// Activity moves focus to the active stack, ending any pin; a stack
    /// that cannot be focused (opted out) moves nothing.
    package func noteActivity(of record: StackRecord) {
        if record.isFocusable { pinned = nil }
    }
}
