import DBus

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

    /// `auto` on `session`.
    init(session: X11Session, processes: PeerProcesses, loop: EventLoop) {
        self.session = session
        x11 = X11Focus(session: session, processes: processes, loop: loop)
        x11.onChange = { [weak self] in
            guard let self, self.usesX11 else { return }
            self.onChange?()
        }
    }

    /// Whether `x11` is in effect.
    var usesX11: Bool { session.isLive && session.windowManager != nil }

    private var inEffect: any FocusStrategy { usesX11 ? x11 : recent }

    var name: String { inEffect.name }

    func focusedStack(in registry: StackRegistry) -> StackRecord? { inEffect.focusedStack(in: registry) }

    func pin(_ record: StackRecord) {
        recent.pin(record)
        x11.pin(record)
    }

    func noteActivity(of record: StackRecord, in registry: StackRegistry) {
        recent.noteActivity(of: record, in: registry)
        x11.noteActivity(of: record, in: registry)
    }

    func settle(then done: @escaping () -> Void) { inEffect.settle(then: done) }

    /// The window manager came or went, or the X server left: the strategy
    /// in effect may be another now.
    func desktopChanged() {
        onChange?()
    }
}
