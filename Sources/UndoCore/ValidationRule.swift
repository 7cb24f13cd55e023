/// One check that input must pass before the model accepts it (Strategy):
/// small rules are composed into a `ValidationPolicy`.
public protocol ValidationRule<Subject>: Sendable {
    /// What the rule checks: an app id, or a group about to be pushed.
    associatedtype Subject

    /// Returns when `subject` passes, and throws the error the wire shows when it does not.
    func validate(_ subject: Subject) throws(UndoError)
}
