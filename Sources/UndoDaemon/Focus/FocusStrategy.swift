/// Decides which stack the system-wide trigger acts on. The `recent`
/// strategy is one implementation; `x11` (the active window's process) slots
/// in beside it.
public protocol FocusStrategy: AnyObject {
    /// The name `FocusStrategy` reports: `recent` or `x11`.
    var name: String { get }
    /// The focused stack, or nil when none may be undone by a trigger.
    /// Only stacks with a live owner and `GlobalTrigger` true qualify.
    func focusedStack(in registry: StackRegistry) -> StackRecord?
    /// `SetFocus`: pins focus to `record` until activity moves it.
    func pin(_ record: StackRecord)
    /// An owner's `Register`, `Activate` or (with follows_push) push.
    func noteActivity(of record: StackRecord, in registry: StackRegistry)
}

extension StackRecord {
    /// Whether a trigger may focus this stack at all.
    public var isFocusable: Bool { isAttached && globalTrigger }
}
