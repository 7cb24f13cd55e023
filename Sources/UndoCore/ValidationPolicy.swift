/// The rules a group must pass at `Push`/`PushGroup`, in the order they
/// are checked; the first failing rule's error is the answer. (An app id is
/// checked at `Register` by `AppIdRule` alone: no stack's settings apply
/// to it yet.)
public struct ValidationPolicy: Sendable {
    /// The rules, in order.
    public var groupRules: [any ValidationRule<GroupCandidate>]

    /// A policy made of the given rules: the place for rules of one's own.
    public init(groupRules: [any ValidationRule<GroupCandidate>]) {
        self.groupRules = groupRules
    }

    /// The wire contract's rules for a stack with these settings: the
    /// group's name, that it is not empty, and its size.
    public init(settings: StackSettings) {
        self.init(groupRules: [GroupNameRule(), NonEmptyGroupRule(), PayloadSizeRule(maxBytes: settings.maxBytes)])
    }

    /// Throws what `ValidationPolicy(settings:).validate(group)` throws,
    /// the same rules in the same order, without making the policy: every
    /// push asks, and a policy is an array to allocate and a dynamic call
    /// for each rule.
    public static func validate(_ group: GroupCandidate, under settings: StackSettings) throws(UndoError) {
        try GroupNameRule().validate(group)
        try NonEmptyGroupRule().validate(group)
        try PayloadSizeRule(maxBytes: settings.maxBytes).validate(group)
    }

    /// Throws the first failing group rule's error.
    public func validate(_ group: GroupCandidate) throws(UndoError) {
        for rule in groupRules { try rule.validate(group) }
    }
}
