import Caretaker
import DBus
import Loop

/// The `auto` strategy: `x11` while an EWMH window manager answers on the
/// X display, else `recent` — switching as window managers start and stop,
/// or the X server goes away. Under Wayland it is `recent` (the Daemon
/// decides that: XWayland sees only X clients' windows).
final class AutoFocus: FocusStrategy {
    private let recent = RecentFocus()
    private let x11: X11Focus
    private let session: X11Session
    /// Called when focus may have moved: the active window changed while
    /// `x11` is in effect, or the strategy in effect changed.
    var onChange: (() -> Void)?

    /// `auto` on `session`, over the stacks of `registry`.
    init(session: X11Session, processes: PeerProcesses, registry: StackRegistry, loop: EventLoop) {
        self.session = session
        x11 = X11Focus(session: session, processes: processes, registry: registry, loop: loop)
        x11.onChange = { [weak self] in
            guard let self, self.usesX11 else { return }
            self.onChange?()
        }
    }

    /// Whether `x11` is in effect.
    var usesX11: Bool { session.isLive && session.windowManager != nil }

    private var inEffect: any FocusStrategy { usesX11 ? x11 : recent }

    /// The name of the strategy in effect: `x11` or `recent`.
    var name: String { inEffect.name }

    /// The focused stack by the strategy in effect.
    func focusedStack(in registry: StackRegistry) -> StackRecord? { inEffect.focusedStack(in: registry) }

    /// Pins `record` for both strategies, so a switch between them keeps it.
    func pin(_ record: StackRecord) {
        recent.pin(record)
        x11.pin(record)
    }

    /// Tells both strategies (x11 learns owners' processes even while recent is in effect).
    func noteActivity(of record: StackRecord, in registry: StackRegistry) {
        recent.noteActivity(of: record, in: registry)
        x11.noteActivity(of: record, in: registry)
    }

    /// Settles the strategy in effect.
    func settle(then done: @escaping () -> Void) { inEffect.settle(then: done) }
}
