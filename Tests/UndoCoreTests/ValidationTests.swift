import Testing
import UndoCore

@Suite("Validation rules")
struct ValidationTests {
    @Test("valid app ids pass", arguments: [
        "a", "org.example.TextEditor", "my_app-2", String(repeating: "x", count: 255), "0._-Z",
    ])
    func validAppId(id: String) throws {
        try AppIdRule().validate(id)
    }

    @Test("invalid app ids fail with InvalidAppId", arguments: [
        "", String(repeating: "x", count: 256), "has space", "slash/", "é", "tab\t", "org.example:1", "日本",
    ])
    func invalidAppId(id: String) {
        #expect(undoError { () throws(UndoError) in try AppIdRule().validate(id) } == .invalidAppId(id))
    }

    /// A candidate named `name` with one action of 2 bytes.
    func named(_ name: String) -> GroupCandidate {
        GroupCandidate(name: name, actionCount: 1, bytes: 2)
    }

    @Test("valid names pass", arguments: [
        "Typing", "Delete 3 files", "Paste “quoted” ✂️", String(repeating: "é", count: 256), "\u{200B}zero width",
    ])
    func validName(name: String) throws {
        try GroupNameRule().validate(named(name))
    }

    @Test("invalid names fail with InvalidName and the reason", arguments: [
        ("", NameProblem.empty),
        (String(repeating: "x", count: 257), .tooLong(257)),
        (String(repeating: "e\u{301}", count: 200), .tooLong(400)),
        ("line\nbreak", .controlCharacter),
        ("tab\there", .controlCharacter),
        ("nul\u{0}", .controlCharacter),
        ("del\u{7F}", .controlCharacter),
        ("c1\u{85}", .controlCharacter),
        ("separator\u{2028}", .controlCharacter),
        ("paragraph\u{2029}", .controlCharacter),
        (String(repeating: "x", count: 300) + "\n", .controlCharacter),
    ])
    func invalidName(name: String, problem: NameProblem) {
        #expect(undoError { () throws(UndoError) in try GroupNameRule().validate(named(name)) } == .invalidName(problem))
    }

    @Test("the empty group rule wants at least one action")
    func emptyGroup() throws {
        try NonEmptyGroupRule().validate(GroupCandidate(name: "a", actionCount: 1, bytes: 0))
        #expect(undoError { () throws(UndoError) in
            try NonEmptyGroupRule().validate(GroupCandidate(name: "a", actionCount: 0, bytes: 0))
        } == .emptyGroup)
    }

    @Test("the payload size rule allows exactly max bytes and refuses one more", arguments: [
        (10 as UInt64, true), (11, false), (0, true),
    ])
    func payloadSize(bytes: UInt64, passes: Bool) {
        let error = undoError { () throws(UndoError) in
            try PayloadSizeRule(maxBytes: 10).validate(GroupCandidate(name: "a", actionCount: 1, bytes: bytes))
        }
        #expect(error == (passes ? nil : .payloadTooLarge(bytes: bytes, maxBytes: 10)))
    }

    @Test("the policy from settings checks name, then emptiness, then size")
    func policyOrder() {
        let policy = ValidationPolicy(settings: limits(maxBytes: 5))
        #expect(policy.groupRules.count == 3)
        #expect(undoError { () throws(UndoError) in
            try policy.validate(GroupCandidate(name: "", actionCount: 0, bytes: 99))
        } == .invalidName(.empty))
        #expect(undoError { () throws(UndoError) in
            try policy.validate(GroupCandidate(name: "a", actionCount: 0, bytes: 99))
        } == .emptyGroup)
        #expect(undoError { () throws(UndoError) in
            try policy.validate(GroupCandidate(name: "a", actionCount: 1, bytes: 6))
        } == .payloadTooLarge(bytes: 6, maxBytes: 5))
    }

    @Test("a push's check without a policy answers as the policy from the same settings does", arguments: [
        ("", 0, 99 as UInt64), ("a", 0, 99), ("a", 1, 6), ("a", 1, 5), ("a\u{7}", 1, 1), (String(repeating: "é", count: 257), 1, 1),
    ])
    func staticCheckMatchesPolicy(name: String, actions: Int, bytes: UInt64) {
        let settings = limits(maxBytes: 5)
        let group = GroupCandidate(name: name, actionCount: actions, bytes: bytes)
        let byPolicy = undoError { () throws(UndoError) in try ValidationPolicy(settings: settings).validate(group) }
        let byCheck = undoError { () throws(UndoError) in try ValidationPolicy.validate(group, under: settings) }
        #expect(byCheck == byPolicy)
    }

    /// A rule of the test's own, to show policies compose any rules.
    struct NoShouting: ValidationRule {
        func validate(_ group: GroupCandidate) throws(UndoError) {
            if group.name == group.name.uppercased() { throw .invalidName(.controlCharacter) }
        }
    }

    @Test("a policy composes custom rules in order")
    func customPolicy() throws {
        let policy = ValidationPolicy(groupRules: [NoShouting(), NonEmptyGroupRule()])
        try policy.validate(GroupCandidate(name: "calm", actionCount: 1, bytes: 0))
        #expect(undoError { () throws(UndoError) in
            try policy.validate(GroupCandidate(name: "LOUD", actionCount: 0, bytes: 0))
        } == .invalidName(.controlCharacter))
    }

    @Test("a push is checked by the stack's policy", arguments: [
        ("", 1, 2, UndoError.invalidName(.empty)),
        ("a\u{1B}", 1, 2, .invalidName(.controlCharacter)),
        (String(repeating: "n", count: 257), 1, 2, .invalidName(.tooLong(257))),
        ("a", 0, 2, .emptyGroup),
        ("a", 2, 6, .payloadTooLarge(bytes: 12, maxBytes: 10)),
    ])
    func pushValidated(name: String, actions: Int, bytes: Int, error: UndoError) {
        var harness = Harness(limits(maxBytes: 10))
        #expect(undoError { () throws(UndoError) in try harness.push(name, bytes: bytes, actions: actions) } == error)
        #expect(harness.stack == UndoStack(settings: limits(maxBytes: 10)))
    }
}
