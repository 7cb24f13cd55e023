import Caretaker
import Loop

/// The `sway`, `kwin` and `gnome` strategies: the window in front is the one
/// the desktop's source last named (sway's IPC, or the compositor's
/// `ReportFocus`), and its stack is found by the rule every window strategy
/// shares (`WindowMatch`). While the source says nothing (sway gone, no
/// report), or names no window, nothing is focused. `SetFocus` pins a
/// stack until the source names another window.
final class WindowFocus: FocusStrategy {
    /// Where the window in front comes from.
    let source: any FrontWindowSource
    /// `sway`, `kwin` or `gnome`.
    var name: String { source.name }
    /// Called when the source names another window, or an owner's process
    /// is learned.
    var onChange: (() -> Void)?

    private let processes: PeerProcesses
    private let registry: StackRegistry
    /// The pinned stack and the window in front when it was pinned.
    private var pinned: (stack: UInt64, front: WindowReport?)?

    /// The strategy on `source`, over the stacks of `registry`.
    init(source: any FrontWindowSource, processes: PeerProcesses, registry: StackRegistry) {
        self.source = source
        self.processes = processes
        self.registry = registry
        source.onChange = { [weak self] in self?.frontChanged() }
        let learned = processes.onLearned
        processes.onLearned = { [weak self] in
            learned?()
            self?.onChange?()
        }
    }

    /// Whether the source names a window now (or says none has focus).
    var isAnswering: Bool { source.front != nil }

    private func frontChanged() {
        if let pinned, pinned.front != source.front { self.pinned = nil }
        onChange?()
    }

    /// The pinned stack while the window in front is the one it was pinned
    /// at; else the stack in front by `WindowMatch`.
    func focusedStack(in registry: StackRegistry) -> StackRecord? {
        if let pinned, pinned.front == source.front, let record = registry.byNumber[pinned.stack], record.isFocusable {
            return record
        }
        return try? match(in: registry).get()
    }

    /// Why no stack is in front.
    func reasonForNoFocus(in registry: StackRegistry) -> NoFocus? {
        guard source.front != nil else { return source.silence }
        if case .failure(let why) = match(in: registry) { return why }
        return nil
    }

    /// Pins `record` at the window in front now.
    func pin(_ record: StackRecord) {
        pinned = (record.number, source.front)
    }

    /// The window in front, when `record` is not one of its stacks.
    func windowRefusingPin(of record: StackRecord, in registry: StackRegistry) -> String? {
        guard let report = source.front else { return nil }
        let front = FrontWindow(processID: report.processID, sandboxAppID: report.sandboxAppID,
                                label: report.processID == 0 ? "nothing (no window has focus)" : processes.label(of: report.processID,
                                                                                             appID: report.appID))
        return processes.matcher.candidates(for: front, in: registry).contains { $0 === record } ? nil : front.label
    }

    /// Learns the owner's process (activity only orders one process's stacks).
    func noteActivity(of record: StackRecord) {
        processes.lookUp(record.owner)
    }

    /// Asks the source again and waits until the owners' processes not yet
    /// known are learned.
    func settle(then done: @escaping () -> Void) {
        for record in registry.byNumber.values where record.isFocusable { processes.lookUp(record.owner) }
        source.refresh { [processes] in processes.whenAnswered(done) }
    }

    /// Whether the stack in front is one of several shells of the
    /// window's terminal with history, and not pinned there.
    func isGuessing(in registry: StackRegistry) -> Bool {
        if let pinned, pinned.front == source.front, registry.byNumber[pinned.stack]?.isFocusable == true { return false }
        return processes.matcher.isGuess(for: front(), in: registry)
    }

    private func match(in registry: StackRegistry) -> Result<StackRecord, NoFocus> {
        guard let front = front() else { return .failure(.noWindow) }
        return processes.matcher.stack(for: front, in: registry)
    }

    /// The window in front as the shared rule sees it (nil: none has focus).
    private func front() -> FrontWindow? {
        guard let report = source.front, report.processID != 0 else { return nil }
        return FrontWindow(processID: report.processID, sandboxAppID: report.sandboxAppID,
                           label: processes.label(of: report.processID, appID: report.appID))
    }
}
