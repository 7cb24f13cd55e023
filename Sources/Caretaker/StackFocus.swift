import Undo1
import UndoCore

/// Which stack the global key acts on, as the service answers for it: the
/// focus strategy decides (`FocusStrategy`), once it has caught up with the
/// desktop; `SetFocus` pins a stack where the strategy lets it; activity
/// moves it. The Manager's `FocusedStack` is looked up and announced where
/// it moved once, as the turn ends, however many changes the turn made (a
/// client leaving with thousands of stacks, a turn of many pushes):
/// looking it up walks the stacks by recency.
final class StackFocus {
    /// The focus strategy in effect.
    private let strategy: any FocusStrategy
    /// Every stack.
    private let registry: StackRegistry
    /// Where the focus is announced.
    private let announcer: Announcer
    /// Whether the focus is to be announced at the turn's end (`announce`).
    private var mayHaveMoved = false
    /// The number of the stack last announced as focused, if any: a
    /// number, not a weak reference, which would send every retain and
    /// release of that record down the slow path (numbers are never reused).
    private var announcedNumber: UInt64?

    /// The focus among `registry`'s stacks by `strategy`, announced by `announcer`.
    init(strategy: any FocusStrategy, registry: StackRegistry, announcer: Announcer) {
        self.strategy = strategy
        self.registry = registry
        self.announcer = announcer
    }

    /// The focused stack as of this moment: once the focus strategy has
    /// caught up with the desktop (the X server's answer), `body` gets it.
    func withFocusedStack(_ body: @escaping (StackRecord?) -> Void) {
        // Held strongly: the strategy lets go once it has settled.
        strategy.settle { [self] in body(strategy.focusedStack(in: registry)) }
    }

    /// Whether `record` is the focused stack by the strategy, now.
    func isFocused(_ record: StackRecord) -> Bool {
        strategy.focusedStack(in: registry) === record
    }

    /// The refusal when no stack is focused, with the strategy's reason.
    var noFocusedStack: ServiceError {
        .noFocusedStack(strategy.reasonForNoFocus(in: registry))
    }

    /// `SetFocus`: pins the stack at `path`, attached, open to the global
    /// key, and in front where the strategy asks that.
    func pin(path: String) throws(ServiceError) {
        guard let record = registry.stack(atPath: path) else { throw .unknownStack(path) }
        guard record.isAttached else { throw .noOwner }
        guard record.globalTrigger else { throw .triggerDisabled }
        if let window = strategy.windowRefusingPin(of: record, in: registry) { throw .notInFront(window: window) }
        strategy.pin(record)
        announce()
    }

    /// The focused stack's path, or `/`.
    var focusedPath: String { strategy.focusedStack(in: registry)?.path ?? ManagerProperties.noStack }

    /// Marks `record` as the most recently active stack and tells the focus
    /// strategy; the focus may have moved to it.
    func noteActivity(of record: StackRecord) {
        let wasDeactivated = record.isDeactivated
        record.isDeactivated = false
        registry.markActive(record)
        strategy.noteActivity(of: record)
        // Activity keeps the stack announced in front there: most pushes
        // go to that stack, and looking the focus up walks the stacks.
        if wasDeactivated || record.number != announcedNumber { announce() }
    }

    /// `record`'s app lost the user's focus (`Deactivate`).
    func deactivated(_ record: StackRecord) {
        record.isDeactivated = true
        announce()
    }

    /// The focus may have moved: it is announced where it moved as the
    /// turn ends (`announceIfMoved`).
    func announce() {
        mayHaveMoved = true
    }

    /// At the turn's end: announces the focus where it moved, if it may have.
    func announceIfMoved() {
        if mayHaveMoved { announceNow() }
    }

    /// Announces the manager's focus where it moved, now.
    func announceNow() {
        mayHaveMoved = false
        let focused = strategy.focusedStack(in: registry)
        announcedNumber = focused?.number
        announcer.focus(focused?.path ?? ManagerProperties.noStack, strategy: strategy.name)
    }
}
