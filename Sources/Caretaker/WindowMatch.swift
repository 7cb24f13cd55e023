import UndoCore

/// The one rule every window strategy (`x11`, `kwin`, `gnome`) applies to
/// find the stack in front (Docs/PROTOCOL.md, "Focus"):
///
/// 1. the stacks owned by the window's process P (the owner connection's
///    PID as the bus vouches for it), those that declared the window first
///    (nearest first), then the most recently active;
/// 2. where P owns none: the stacks of a process in the same sandbox (a
///    Flatpak app's bus traffic comes from its proxy's process);
/// 3. where P owns none (x11): the stacks that declared the window, for a
///    window drawn by a helper process or a remote client;
/// 4. where P owns none: the stacks that serve a process descending from P
///    (`process`: a terminal's shells, whose file agent owns their stacks),
///    the most recently active first — a guess where more than one of them
///    has history (`isGuess`).
///
/// A declaration never takes a window from the stacks of the process that
/// made it, and the app id a window gives itself is never evidence.
/// Otherwise nothing is focused, with the reason.
package struct WindowMatch {
    /// The Unix process of an owner's connection, where known.
    package var processOf: (String) -> UInt32?
    /// The sandbox app id of a process (a Flatpak's `[Application] name`),
    /// where it has one.
    package var sandboxOf: (UInt32) -> String?
    /// A process's parent now, where known.
    package var parentOf: (UInt32) -> UInt32?
    /// When a process started, where it runs: a served process whose start
    /// time differs is another that took its pid.
    package var startTimeOf: (UInt32) -> UInt64?

    /// How many parent links a served process may be below the window's.
    static let maximumDepth = 64

    /// A matcher that learns processes, sandboxes and the process tree from these.
    package init(processOf: @escaping (String) -> UInt32?, sandboxOf: @escaping (UInt32) -> String?,
                 parentOf: @escaping (UInt32) -> UInt32? = { _ in nil },
                 startTimeOf: @escaping (UInt32) -> UInt64? = { _ in nil }) {
        self.processOf = processOf
        self.sandboxOf = sandboxOf
        self.parentOf = parentOf
        self.startTimeOf = startTimeOf
    }

    /// The stack in front of `front` (nil: no window has focus), or why there is none.
    package func stack(for front: FrontWindow?, in registry: StackRegistry) -> Result<StackRecord, NoFocus> {
        pick(for: front, in: registry).map(\.record)
    }

    /// Whether the stack in front of `front` is a guess: one of several
    /// shells (the stacks serving a process below the window's, step 4)
    /// that have history — a terminal's tabs, say.
    package func isGuess(for front: FrontWindow?, in registry: StackRegistry) -> Bool {
        guard let front, case .success(let pick) = pick(for: front, in: registry), pick.served else { return false }
        let withHistory = registry.byNumber.values.filter { record in
            record.isFocusable && record.readingStack({ $0.canUndo || $0.canRedo })
                && serves(record, below: front.processID)
        }
        return withHistory.count > 1
    }

    /// The stack in front of `front`, and whether step 4 found it.
    private func pick(for front: FrontWindow?, in registry: StackRegistry)
        -> Result<(record: StackRecord, served: Bool), NoFocus> {
        guard let front, front.processID != 0 || !front.windows.isEmpty else { return .failure(.noWindow) }
        let process = front.processID
        let owns = { (record: StackRecord) in process != 0 && processOf(record.owner) == process }
        for window in front.windows {
            if let record = registry.mostRecentlyActive(where: { owns($0) && $0.windows.contains(window) }) {
                return .success((record, false))
            }
        }
        if let record = registry.mostRecentlyActive(where: owns) { return .success((record, false)) }
        if let opted = registry.byNumber.values.filter({ $0.isAttached && owns($0) }).min(by: { $0.number < $1.number }) {
            return .failure(.optedOut(opted.displayName))
        }
        let sandbox = front.sandboxAppID.isEmpty ? (process == 0 ? nil : sandboxOf(process)) : front.sandboxAppID
        if let sandbox, let record = registry.mostRecentlyActive(where: { record in
            processOf(record.owner).flatMap(sandboxOf) == sandbox
        }) {
            return .success((record, false))
        }
        for window in front.windows {
            if let record = registry.mostRecentlyActive(where: { $0.windows.contains(window) }) { return .success((record, false)) }
        }
        if let record = registry.mostRecentlyActive(where: { serves($0, below: process) }) {
            return .success((record, true))
        }
        return .failure(.noHistory(front.label))
    }

    /// The stacks `SetFocus` may choose among while `front` is in front, by
    /// the same rule: the process's own stacks where it has any (a process
    /// with several documents), else its sandbox's, else the stacks that
    /// declared the window, else those serving a process below it (a
    /// terminal's shells). Only stacks a trigger may focus.
    package func candidates(for front: FrontWindow, in registry: StackRegistry) -> [StackRecord] {
        let process = front.processID
        let attached = registry.byNumber.values.filter(\.isAttached)
        let owned = attached.filter { process != 0 && processOf($0.owner) == process }
        if !owned.isEmpty { return owned.filter(\.isFocusable) }
        let sandbox = front.sandboxAppID.isEmpty ? (process == 0 ? nil : sandboxOf(process)) : front.sandboxAppID
        if let sandbox {
            let sandboxed = attached.filter { processOf($0.owner).flatMap(sandboxOf) == sandbox }
            if !sandboxed.isEmpty { return sandboxed.filter(\.isFocusable) }
        }
        let declared = attached.filter { record in
            record.isFocusable && front.windows.contains { record.windows.contains($0) }
        }
        if !declared.isEmpty { return declared }
        return attached.filter { $0.isFocusable && serves($0, below: process) }
    }

    /// Whether `record` serves a process that is `ancestor` or descends
    /// from it by the parent links of this moment, and is the very process
    /// it named (its start time unchanged). Never below pid 1 (every
    /// process descends from init) or an unknown process (0).
    private func serves(_ record: StackRecord, below ancestor: UInt32) -> Bool {
        guard ancestor > 1, let served = record.servedProcess, startTimeOf(served.pid) == served.startTime else {
            return false
        }
        var pid = served.pid
        for _ in 0..<Self.maximumDepth {
            if pid == ancestor { return true }
            guard let parent = parentOf(pid), parent > 1 else { return false }
            pid = parent
        }
        return false
    }
}

/// Why no stack is focused, as the end of `NoFocusedStack`'s sentence.
package enum NoFocus: Error, Equatable, Sendable {
    /// No window has focus (or the desktop did not say which).
    case noWindow
    /// The window in front belongs to an app without undo history.
    case noHistory(String)
    /// The stack in front opted out of the global trigger.
    case optedOut(String)
    /// The strategy cannot tell (it says why).
    case unknown(String)
    /// A trigger waited behind another undo or redo of `from` (a stack's
    /// display name), and meanwhile focus left that stack.
    case moved(from: String)

    /// The reason as a clause: "the window in front, xterm (pid 4242), has no undo history".
    package var clause: String {
        switch self {
        case .noWindow: "no window has focus"
        case .noHistory(let window): "the window in front, \(window), has no undo history"
        case .optedOut(let stack): "the stack in front, \(stack), does not allow undo from outside its application"
        case .unknown(let why): why
        case .moved(let stack): "focus moved away from \(stack) while the request waited behind another undo or redo, "
            + "so nothing was applied"
        }
    }
}
