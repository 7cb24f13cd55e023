package import UndoCore

/// The focus side of the service, as the bus and the triggers ask for it:
/// which stack the global key acts on (`StackFocus`), `UndoFocused` and
/// `RedoFocused`, `SetFocus`, the Manager's `FocusedStack`.
extension UndoService {
    /// The focused stack as of this moment: once the focus strategy has
    /// caught up with the desktop (the X server's answer), `body` gets it.
    package func withFocusedStack(_ body: @escaping (StackRecord?) -> Void) {
        stackFocus.withFocusedStack(body)
    }

    /// The refusal when no stack is focused, with the strategy's reason.
    package var noFocusedStack: ServiceError { stackFocus.noFocusedStack }

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
        try stackFocus.pin(path: path)
    }

    /// The focused stack's path, or `/`.
    package var focusedPath: String { stackFocus.focusedPath }
}
