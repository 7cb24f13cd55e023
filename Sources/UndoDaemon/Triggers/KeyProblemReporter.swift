import DBus
import Loop
import Logging

/// Says, never silently, that the global key cannot work: the desktop's
/// watches tell it each cause's problem as it comes and goes (`update`);
/// the log says each problem once per run, `current` is what the
/// manager's `KeyProblem` property shows while it lasts, and the first
/// problem of the run is also a notification — once per run, not once per
/// cause or per restart of the desktop. No display known counts only while
/// the bus shows a desktop (a notification server, or GNOME Shell or KWin
/// on their names): an undod on a machine without one, used through
/// `undoctl`, has no key to lose. Confined to the loop.
final class KeyProblemReporter {
    /// Where a problem comes from; the first present in this order is shown.
    enum Cause: Int, Comparable, CaseIterable {
        case display, gnome, kwin

        static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Called when `current` changes (the property's PropertiesChanged).
    var onChange: ((String) -> Void)?

    private let log: Log
    private let notifier: FeedbackNotifier<Never>
    private let notifies: () -> Bool
    private var problems: [Cause: KeyProblem] = [:]
    /// The compositors that own their names on the bus now.
    private var compositors: Set<Compositor> = []
    private var logged: Set<String> = []
    private var notified = false
    /// What `onChange` was last told.
    private var announced = ""

    /// A reporter that logs to `log` and notifies on `connection` while
    /// `notifies` says notifications are on (`notify.enabled`).
    init(connection: Connection, log: Log, notifies: @escaping () -> Bool) {
        self.log = log
        self.notifies = notifies
        notifier = FeedbackNotifier(connection: connection, log: log)
        // A problem found before a notification server came (GNOME Shell's
        // comes after the Shell) is said then.
        notifier.onServerAppeared = { [unowned self] in refresh() }
    }

    /// The sentence of the problem shown now, or "" while the key can work
    /// as far as undod can tell.
    var current: String { shown.first?.sentence ?? "" }

    /// `cause` now has `problem` (nil: none).
    func update(_ cause: Cause, _ problem: KeyProblem?) {
        guard problems[cause] != problem else { return }
        problems[cause] = problem
        refresh()
    }

    /// `compositor` came to the bus, or left it: evidence of a desktop.
    func compositor(_ compositor: Compositor, isPresent: Bool) {
        if isPresent { compositors.insert(compositor) } else { compositors.remove(compositor) }
        refresh()
    }

    /// The problems that count now, in the order of `Cause`.
    private var shown: [KeyProblem] {
        let desktop = notifier.isRunning || !compositors.isEmpty
        return problems.filter { $0.key != .display || desktop }.sorted { $0.key < $1.key }.map(\.value)
    }

    private func refresh() {
        let problems = shown
        for problem in problems where logged.insert(problem.sentence).inserted { log.warning(.keysProblem, problem.sentence) }
        if let first = problems.first { notifyOnce(first) }
        guard current != announced else { return }
        announced = current
        onChange?(current)
    }

    private func notifyOnce(_ problem: KeyProblem) {
        guard !notified, notifies(), notifier.isAvailable else { return }
        notified = true
        notifier.show(.init(summary: "The undo key is not set up here", body: problem.sentence, icon: "dialog-warning",
                            urgency: 1))
    }
}
