/// Decides which stack the system-wide trigger acts on (`focus.strategy`):
/// `RecentFocus` here; in the daemon `X11Focus`, `WindowFocus` (what sway,
/// KWin or GNOME Shell has in front), `AutoFocus`, which picks one of them
/// by what the desktop offers, and `FocusSwitch`, which holds the one in
/// force so that another can take its place.
package protocol FocusStrategy: AnyObject {
    /// The name `FocusStrategy` reports: `recent`, `x11`, `sway`, `kwin` or `gnome`.
    var name: String { get }
    /// The focused stack, or nil when none may be undone by a trigger.
    /// Only stacks with a live owner and `GlobalTrigger` true qualify.
    func focusedStack(in registry: StackRegistry) -> StackRecord?
    /// `SetFocus`: pins focus to `record` until activity moves it.
    func pin(_ record: StackRecord)
    /// Where `SetFocus` may not choose `record`: the window in front (a
    /// label), when the strategy knows it and `record` is not one of its
    /// stacks. Nil where the pin is allowed (always, under `recent`).
    func windowRefusingPin(of record: StackRecord, in registry: StackRegistry) -> String?
    /// An owner's `Register`, `Activate` or (with follows_push) push; the
    /// registry has already marked the stack as the most recently active.
    func noteActivity(of record: StackRecord)
    /// Calls `done` once what the strategy knows is as fresh as the moment
    /// of the call (a trigger asks this before it picks a stack): at once
    /// for `recent`; after one round trip to the X server for `x11`.
    func settle(then done: @escaping () -> Void)
    /// Called when focus may have moved for a reason of the strategy's own
    /// (the active window changed), so that `FocusedStack` is announced.
    var onChange: (() -> Void)? { get set }
    /// Why `focusedStack(in:)` finds none, where the strategy knows.
    func reasonForNoFocus(in registry: StackRegistry) -> NoFocus?
    /// Whether the window in front leaves a choice the strategy had to
    /// guess (several shells of one terminal with history): then
    /// `notify.confirm = auto` asks first. `recent` is a guess of another
    /// kind, which the daemon tells by its name.
    func isGuessing(in registry: StackRegistry) -> Bool
}

extension FocusStrategy {
    /// Nothing to wait for.
    package func settle(then done: @escaping () -> Void) { done() }
    /// No window decides.
    package func windowRefusingPin(of record: StackRecord, in registry: StackRegistry) -> String? { nil }
    /// Nothing is chosen among a window's stacks.
    package func isGuessing(in registry: StackRegistry) -> Bool { false }
}

extension StackRecord {
    /// Whether a trigger may focus this stack at all.
    package var isFocusable: Bool { isAttached && globalTrigger }
}
