import Caretaker
import Loop

/// The `auto` strategy, chosen afresh at each moment: `sway` while
/// `$SWAYSOCK`'s sway answers; `kwin` or `gnome` while
/// `XDG_CURRENT_DESKTOP` names that desktop and its compositor has reported
/// the window in front; `x11` while an EWMH window manager answers on the X
/// display and no Wayland compositor is in use; else `recent`. It switches
/// as these appear and go.
final class AutoFocus: FocusStrategy {
    private let recent = RecentFocus()
    private let windows: [WindowFocus]
    private let x11: X11Focus?
    private let session: X11Session?
    /// Called when focus may have moved: the strategy in effect saw a
    /// change, or another strategy took over.
    var onChange: (() -> Void)?

    /// `auto` over the desktop's window sources (`windows`: sway, the
    /// compositors the desktop names; the first that answers wins) and the X
    /// display (`session`, nil on Wayland or without one).
    init(windows: [WindowFocus], session: X11Session?, processes: PeerProcesses, registry: StackRegistry,
         loop: EventLoop) {
        self.windows = windows
        self.session = session
        x11 = session.map { X11Focus(session: $0, processes: processes, registry: registry, loop: loop) }
        for strategy in windows {
            strategy.onChange = { [weak self] in self?.onChange?() }
        }
        x11?.onChange = { [weak self] in
            guard let self, self.usesX11 else { return }
            self.onChange?()
        }
    }

    /// Whether `x11` is in effect (no window source answers first).
    var usesX11: Bool { inEffect === x11 }

    private var inEffect: any FocusStrategy {
        if let answering = windows.first(where: \.isAnswering) { return answering }
        if let x11, let session, session.isLive, session.windowManager != nil { return x11 }
        return recent
    }

    /// The name of the strategy in effect.
    var name: String { inEffect.name }

    /// The focused stack by the strategy in effect.
    func focusedStack(in registry: StackRegistry) -> StackRecord? { inEffect.focusedStack(in: registry) }

    /// Why the strategy in effect focuses nothing.
    func reasonForNoFocus(in registry: StackRegistry) -> NoFocus? { inEffect.reasonForNoFocus(in: registry) }
    func isGuessing(in registry: StackRegistry) -> Bool { inEffect.isGuessing(in: registry) }

    /// The strategy in effect decides.
    func windowRefusingPin(of record: StackRecord, in registry: StackRegistry) -> String? {
        inEffect.windowRefusingPin(of: record, in: registry)
    }

    /// Pins `record` for every strategy, so a switch between them keeps it.
    func pin(_ record: StackRecord) {
        recent.pin(record)
        x11?.pin(record)
        for strategy in windows { strategy.pin(record) }
    }

    /// Tells every strategy (the window strategies learn owners' processes
    /// even while another is in effect).
    func noteActivity(of record: StackRecord) {
        recent.noteActivity(of: record)
        x11?.noteActivity(of: record)
        for strategy in windows { strategy.noteActivity(of: record) }
    }

    /// Settles the strategy in effect.
    func settle(then done: @escaping () -> Void) { inEffect.settle(then: done) }
}
