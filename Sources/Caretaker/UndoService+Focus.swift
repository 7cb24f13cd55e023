package import UndoCore
import Undo1

/// The focus side of the service: which stack the global key acts on
/// (`FocusStrategy` decides), `UndoFocused`/`RedoFocused`, `SetFocus`, and
/// the manager's `FocusedStack` announced once per turn.
extension UndoService {
    /// The focused stack as of this moment: once the focus strategy has
    /// caught up with the desktop (the X server's answer), `body` gets it.
    package func withFocusedStack(_ body: @escaping (StackRecord?) -> Void) {
        // Held strongly: the strategy lets go once it has settled.
        focus.settle { [self] in body(focus.focusedStack(in: registry)) }
    }

    /// The refusal when no stack is focused, with the strategy's reason.
    package var noFocusedStack: ServiceError {
        .noFocusedStack(focus.reasonForNoFocus(in: registry))
    }

    /// `UndoFocused`/`RedoFocused`, and every trigger: undo or redo on the
    /// focused stack, answering (once stored) with the stack it acted on.
    package func applyFocused(_ direction: Direction, caller: String?,
                             completion: @escaping (StackRecord?, Result<CompletedMove, ServiceError>) -> Void) {
        withFocusedStack { [self] record in
            guard let record else { return completion(nil, .failure(noFocusedStack)) }
            apply(direction, on: record, caller: caller, followsFocus: true) { completion(record, $0) }
        }
    }

    /// `SetFocus`.
    package func setFocus(path: String) throws(ServiceError) {
        guard let record = registry.stack(atPath: path) else { throw .unknownStack(path) }
        guard record.isAttached else { throw .noOwner }
        guard record.globalTrigger else { throw .triggerDisabled }
        if let window = focus.windowRefusingPin(of: record, in: registry) { throw .notInFront(window: window) }
        focus.pin(record)
        announceFocus()
    }

    /// The focused stack's path, or `/`.
    package var focusedPath: String { focus.focusedStack(in: registry)?.path ?? ManagerProperties.noStack }

    /// The focus may have moved: it is looked up and announced where it
    /// moved once, as the turn ends (`endTurn`), however many changes the
    /// turn made (a client leaving with thousands of stacks, a turn of many
    /// pushes): looking it up walks the stacks by recency.
    func announceFocus() {
        focusMayHaveMoved = true
    }

    /// Announces the manager's focus where it moved, now.
    func announceFocusNow() {
        focusMayHaveMoved = false
        announcer.focus(focusedPath, strategy: focus.name)
    }
}
