/// The `recent` strategy: the stack whose owner most recently registered,
/// activated or pushed, unless `SetFocus` pinned another since. When the
/// focused stack detaches or closes, focus falls to the most recently active
/// remaining one.
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
        return registry.mostRecentlyActive { _ in true }
    }

    /// Pins focus to `record`.
    package func pin(_ record: StackRecord) {
        pinned = record.number
    }

    /// Activity moves focus to the active stack, ending any pin; a stack
    /// that cannot be focused (opted out) moves nothing.
    package func noteActivity(of record: StackRecord, in registry: StackRegistry) {
        if record.isFocusable { pinned = nil }
    }
}
