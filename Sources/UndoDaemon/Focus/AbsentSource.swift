import Caretaker

/// A window source that is not there (sway asked for, but no `SWAYSOCK`):
/// it never names a window, and says why.
final class AbsentSource: FrontWindowSource {
    /// The strategy's name.
    let name: String
    /// Why it says nothing.
    let silence: NoFocus
    /// Never a window.
    var front: WindowReport? { nil }
    /// Never called.
    var onChange: (() -> Void)?

    /// A source for `name` that says `why` it is silent.
    init(name: String, why: String) {
        self.name = name
        silence = .unknown(why)
    }

    /// Nothing to ask.
    func refresh(then done: @escaping () -> Void) { done() }
}
