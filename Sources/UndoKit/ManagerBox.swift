/// Where undod's calls find the manager: filled once the manager exists
/// (the stack's handler is in place before), emptied as it goes.
@MainActor
final class ManagerBox {
    weak var manager: UndoManager?

    /// Applies `request` on the manager, or answers Obsolete without one.
    func apply(_ request: ApplyRequest) throws {
        guard let manager else { throw UndoKitError.obsolete }
        try manager.apply(request)
    }
}
