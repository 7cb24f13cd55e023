/// The validation rules in force, in the order they are checked; the first
/// failing rule's error is the answer.
public struct ValidationPolicy: Sendable {
    /// The rules an app id must pass at `Register`.
    public var appIdRules: [any ValidationRule<String>]
    /// The rules a group must pass at `Push`/`PushGroup`.
    public var groupRules: [any ValidationRule<GroupCandidate>]

    /// A policy made of the given rules.
    public init(appIdRules: [any ValidationRule<String>], groupRules: [any ValidationRule<GroupCandidate>]) {
        self.appIdRules = appIdRules
        self.groupRules = groupRules
    }

    /// The wire contract's rules for a stack with these settings: the app id
    /// rule; then the group's name, that it is not empty, and its size.
    public init(settings: StackSettings) {
        self.init(
            appIdRules: [AppIdRule()],
            groupRules: [GroupNameRule(), NonEmptyGroupRule(), PayloadSizeRule(maxBytes: settings.maxBytes)])
    }

    /// Throws the first failing app id rule's error.
    public func validate(appId: String) throws(UndoError) {
        for rule in appIdRules { try rule.validate(appId) }
    }

    /// Throws the first failing group rule's error.
    public func validate(_ group: GroupCandidate) throws(UndoError) {
        for rule in groupRules { try rule.validate(group) }
    }
}
