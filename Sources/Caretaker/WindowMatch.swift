/// The one rule every window strategy (`x11`, `kwin`, `gnome`) applies to
/// find the stack in front (Docs/PROTOCOL.md, "Focus"):
///
/// 1. the stacks owned by the window's process P (the owner connection's
///    PID as the bus vouches for it), those that declared the window first
///    (nearest first), then the most recently active;
/// 2. where P owns none: the stacks of a process in the same sandbox (a
///    Flatpak app's bus traffic comes from its proxy's process);
/// 3. where P owns none (x11): the stacks that declared the window, for a
///    window drawn by a helper process or a remote client.
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

    /// A matcher that learns processes and sandboxes from these.
    package init(processOf: @escaping (String) -> UInt32?, sandboxOf: @escaping (UInt32) -> String?) {
        self.processOf = processOf
        self.sandboxOf = sandboxOf
    }

    /// The stack in front of `front` (nil: no window has focus), or why there is none.
    package func stack(for front: FrontWindow?, in registry: StackRegistry) -> Result<StackRecord, NoFocus> {
        guard let front, front.processID != 0 || !front.windows.isEmpty else { return .failure(.noWindow) }
        let process = front.processID
        let owns = { (record: StackRecord) in process != 0 && processOf(record.owner) == process }
        for window in front.windows {
            if let record = registry.mostRecentlyActive(where: { owns($0) && $0.windows.contains(window) }) {
                return .success(record)
            }
        }
        if let record = registry.mostRecentlyActive(where: owns) { return .success(record) }
        if let opted = registry.byNumber.values.filter({ $0.isAttached && owns($0) }).min(by: { $0.number < $1.number }) {
            return .failure(.optedOut(opted.displayName))
        }
        let sandbox = front.sandboxAppID.isEmpty ? (process == 0 ? nil : sandboxOf(process)) : front.sandboxAppID
        if let sandbox, let record = registry.mostRecentlyActive(where: { record in
            processOf(record.owner).flatMap(sandboxOf) == sandbox
        }) {
            return .success(record)
        }
        for window in front.windows {
            if let record = registry.mostRecentlyActive(where: { $0.windows.contains(window) }) { return .success(record) }
        }
        return .failure(.noHistory(front.label))
    }

    /// The stacks `SetFocus` may choose among while `front` is in front, by
    /// the same rule: the process's own stacks where it has any (a process
    /// with several documents), else its sandbox's, else the stacks that
    /// declared the window. Only stacks a trigger may focus.
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
        return attached.filter { record in record.isFocusable && front.windows.contains { record.windows.contains($0) } }
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
