import Caretaker

/// The focus strategy in force, which the desktop may replace while undod
/// runs (a desktop that comes later): every question goes to the current
/// strategy, and a replacement is announced as a focus change. What the old
/// strategy knew (a pin) goes with it.
final class FocusSwitch: FocusStrategy {
    /// The strategy answering now.
    private(set) var current: any FocusStrategy
    /// Called when focus may have moved: the current strategy saw a change,
    /// or another took over.
    var onChange: (() -> Void)?

    /// A switch starting with `strategy`.
    init(_ strategy: any FocusStrategy) {
        current = strategy
        wire()
    }

    /// Puts `strategy` in force.
    func replace(with strategy: any FocusStrategy) {
        current = strategy
        wire()
        onChange?()
    }

    private func wire() {
        current.onChange = { [weak self] in self?.onChange?() }
    }

    /// The current strategy's name.
    var name: String { current.name }
    /// The current strategy's focused stack.
    func focusedStack(in registry: StackRegistry) -> StackRecord? { current.focusedStack(in: registry) }
    /// The current strategy's reason.
    func reasonForNoFocus(in registry: StackRegistry) -> NoFocus? { current.reasonForNoFocus(in: registry) }
    func isGuessing(in registry: StackRegistry) -> Bool { current.isGuessing(in: registry) }
    /// The current strategy decides.
    func windowRefusingPin(of record: StackRecord, in registry: StackRegistry) -> String? {
        current.windowRefusingPin(of: record, in: registry)
    }
    /// Pins in the current strategy.
    func pin(_ record: StackRecord) { current.pin(record) }
    /// Tells the current strategy.
    func noteActivity(of record: StackRecord) {
        current.noteActivity(of: record)
    }
    /// Settles the current strategy.
    func settle(then done: @escaping () -> Void) { current.settle(then: done) }
}
