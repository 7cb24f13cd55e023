import Caretaker
import Loop

/// The `kwin` and `gnome` strategies: the window in front is the one the
/// compositor last reported through `ReportFocus`, and its stack is found by
/// the rule every window strategy shares (`WindowMatch`). No report (the
/// script or extension is not running), a report of pid 0, or a compositor
/// that left the bus: nothing is focused. `SetFocus` pins a stack until the
/// compositor reports another window.
final class ReportedFocus: FocusStrategy {
    /// Which compositor reports.
    let compositor: Compositor
    /// `kwin` or `gnome`.
    var name: String { compositor.rawValue }
    /// Called when the compositor reports, or an owner's process is learned.
    var onChange: (() -> Void)?

    private let reports: CompositorReports
    private let processes: PeerProcesses
    private let registry: StackRegistry
    /// The pinned stack and the report in force when it was pinned.
    private var pinned: (stack: UInt64, report: CompositorReports.Report?)?
    /// The label of the reported window's process, by pid.
    private var label: (pid: UInt32, text: String)?

    /// The strategy on `compositor`'s reports, over the stacks of `registry`.
    init(_ compositor: Compositor, reports: CompositorReports, processes: PeerProcesses, registry: StackRegistry) {
        self.compositor = compositor
        self.reports = reports
        self.processes = processes
        self.registry = registry
        let learned = processes.onLearned
        processes.onLearned = { [weak self] in
            learned?()
            self?.onChange?()
        }
    }

    /// Whether the compositor has reported since it took its name.
    var hasReported: Bool { reports.report(of: compositor) != nil }

    /// Tells the strategy that the compositor reported (or came or went).
    func reportsChanged() {
        if let pinned, pinned.report != reports.report(of: compositor) { self.pinned = nil }
        onChange?()
    }

    /// The pinned stack while the report is the one it was pinned at; else
    /// the stack in front by `WindowMatch`.
    func focusedStack(in registry: StackRegistry) -> StackRecord? {
        if let pinned, pinned.report == reports.report(of: compositor), let record = registry.byNumber[pinned.stack],
           record.isFocusable {
            return record
        }
        return try? match(in: registry).get()
    }

    /// Why no stack is in front.
    func reasonForNoFocus(in registry: StackRegistry) -> NoFocus? {
        guard reports.isPresent(compositor) else {
            return .unknown("\(compositor.busName) is not on the bus to say which window is in front")
        }
        guard hasReported else {
            return .unknown("\(compositor.busName) has not reported the window in front; "
                + (compositor == .kwin ? "undod's KWin script is not running" : "enable the undod GNOME Shell extension"))
        }
        if case .failure(let why) = match(in: registry) { return why }
        return nil
    }

    /// Pins `record` at the window reported now.
    func pin(_ record: StackRecord) {
        pinned = (record.number, reports.report(of: compositor))
    }

    /// Learns the owner's process (activity only orders one process's stacks).
    func noteActivity(of record: StackRecord, in registry: StackRegistry) {
        processes.lookUp(record.owner)
    }

    /// Waits until the owners' processes not yet known are learned.
    func settle(then done: @escaping () -> Void) {
        for record in registry.byNumber.values where record.isFocusable { processes.lookUp(record.owner) }
        processes.whenAnswered(done)
    }

    private func match(in registry: StackRegistry) -> Result<StackRecord, NoFocus> {
        guard let report = reports.report(of: compositor), report.processID != 0 else { return .failure(.noWindow) }
        let front = FrontWindow(processID: report.processID, sandboxAppID: report.sandboxAppID,
                                label: label(of: report))
        return processes.matcher.stack(for: front, in: registry)
    }

    /// `konsole (pid 4242)`; the app id the window gave itself where
    /// `/proc` does not name the process.
    private func label(of report: CompositorReports.Report) -> String {
        if let label, label.pid == report.processID { return label.text }
        var text = LocalProcess.label(report.processID)
        if text.hasPrefix("pid "), !report.appID.isEmpty { text = "\(report.appID) (pid \(report.processID))" }
        label = (report.processID, text)
        return text
    }
}
