/// A pushed group has at least one action, else `EmptyGroup`.
public struct NonEmptyGroupRule: ValidationRule {
    /// The rule; it has no settings.
    public init() {}

    /// Throws `emptyGroup` when the push carries no actions.
    public func validate(_ group: GroupCandidate) throws(UndoError) {
        guard group.actionCount > 0 else { throw .emptyGroup }
    }
}
