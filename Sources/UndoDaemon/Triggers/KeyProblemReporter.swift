import DBus
import Loop

/// Says, never silently, that the global key cannot work: the desktop's
/// watches tell it each cause's problem as it comes and goes (`update`);
/// the log says each problem once per run, `current` is what the
/// manager's `KeyProblem` property shows while it lasts, and the first
/// problem of the run is also a notification — once per run, not once per
/// cause or per restart of the desktop. Confined to the loop.
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
    private var logged: Set<String> = []
    private var notified = false

    /// A reporter that logs to `log` and notifies on `connection` while
    /// `notifies` says notifications are on (`notify.enabled`).
    init(connection: Connection, log: Log, notifies: @escaping () -> Bool) {
        self.log = log
        self.notifies = notifies
        notifier = FeedbackNotifier(connection: connection, log: log)
        // A problem found before a notification server came (GNOME Shell
        // is one, and may take its name after undod asked it) is said then.
        notifier.onServerAppeared = { [unowned self] in
            if let first = problems.sorted(by: { $0.key < $1.key }).first?.value { notifyOnce(first) }
        }
    }

    /// The sentence of the problem shown now, or "" while the key can work
    /// as far as undod can tell.
    var current: String {
        problems.sorted { $0.key < $1.key }.first?.value.sentence ?? ""
    }

    /// `cause` now has `problem` (nil: none).
    func update(_ cause: Cause, _ problem: KeyProblem?) {
        guard problems[cause] != problem else { return }
        let before = current
        problems[cause] = problem
        if let problem {
            if logged.insert(problem.sentence).inserted { log.warning(problem.sentence) }
            notifyOnce(problem)
        }
        if current != before { onChange?(current) }
    }

    private func notifyOnce(_ problem: KeyProblem) {
        guard !notified, notifies(), notifier.isAvailable else { return }
        notified = true
        notifier.show(.init(summary: "The undo key does nothing here", body: problem.sentence, icon: "dialog-warning",
                            urgency: 1))
    }
}
