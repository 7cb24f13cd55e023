import Testing
import UndoCore

/// One step of a Qt-style stack scenario.
indirect enum Step: Sendable {
    /// Pushes a one-action group of `bytes` bytes.
    case push(String, key: String = "", tag: String = "", bytes: Int = 2)
    /// A whole undo.
    case undo
    /// A whole redo.
    case redo
    /// `setClean()`.
    case setClean
    /// `clear()`.
    case clear
    /// Advances the clock by milliseconds.
    case wait(Int64)
    /// Begins an undo and drops the group as obsolete.
    case obsoleteUndo
    /// Begins a redo and drops the group as obsolete.
    case obsoleteRedo
    /// `setSettings` with these limits.
    case limits(levels: UInt32, maxBytes: UInt64)
    /// The step fails with this error and leaves the stack identical.
    case fails(Step, UndoError)
    /// The stack shows these names (top first) and this clean flag, and, when given, this tag and byte count.
    case expect(undo: [String], redo: [String], clean: Bool, tag: String? = nil, bytes: UInt64? = nil)
}

/// A named table of steps, run from an empty stack.
struct Scenario: Sendable, CustomTestStringConvertible {
    var name: String
    var settings: StackSettings = .exact
    var steps: [Step]

    var testDescription: String { name }
}

/// Limits for scenarios: levels and bytes, with the default merge window.
func limits(levels: UInt32 = 0, maxBytes: UInt64 = .max) -> StackSettings {
    StackSettings(levels: levels, maxBytes: maxBytes, mergeWindowMilliseconds: 1000, minimumActionBytes: 0)
}

let scenarios: [Scenario] = [
    Scenario(name: "empty stack", steps: [
        .expect(undo: [], redo: [], clean: true, tag: "", bytes: 0),
        .fails(.undo, .nothingToUndo),
        .fails(.redo, .nothingToRedo),
        .setClean,
        .expect(undo: [], redo: [], clean: true),
    ]),
    Scenario(name: "push, undo and redo move groups between the sides", steps: [
        .push("a"), .push("b"),
        .expect(undo: ["b", "a"], redo: [], clean: false, bytes: 4),
        .undo,
        .expect(undo: ["a"], redo: ["b"], clean: false, bytes: 4),
        .undo,
        .expect(undo: [], redo: ["a", "b"], clean: true),
        .fails(.undo, .nothingToUndo),
        .redo, .redo,
        .expect(undo: ["b", "a"], redo: [], clean: false),
        .fails(.redo, .nothingToRedo),
    ]),
    Scenario(name: "redo truncation", steps: [
        .push("a"), .push("b"), .push("c"), .undo, .undo,
        .expect(undo: ["a"], redo: ["b", "c"], clean: false, bytes: 6),
        .push("d"),
        .expect(undo: ["d", "a"], redo: [], clean: false, bytes: 4),
        .fails(.redo, .nothingToRedo),
    ]),
    Scenario(name: "clean in the middle, reached from above and from below", steps: [
        .push("a"), .push("b"), .push("c"), .undo, .undo, .setClean,
        .expect(undo: ["a"], redo: ["b", "c"], clean: true),
        .redo, .expect(undo: ["b", "a"], redo: ["c"], clean: false),
        .redo, .expect(undo: ["c", "b", "a"], redo: [], clean: false),
        .undo, .undo, .expect(undo: ["a"], redo: ["b", "c"], clean: true),
        .undo, .expect(undo: [], redo: ["a", "b", "c"], clean: false),
        .redo, .expect(undo: ["a"], redo: ["b", "c"], clean: true),
    ]),
    Scenario(name: "clean at the empty state before any setClean", steps: [
        .push("a"), .expect(undo: ["a"], redo: [], clean: false),
        .undo, .expect(undo: [], redo: ["a"], clean: true),
    ]),
    Scenario(name: "clean lost when a push discards it from the redo side", steps: [
        .push("a"), .push("b"), .setClean, .undo,
        .expect(undo: ["a"], redo: ["b"], clean: false),
        .push("c"), .expect(undo: ["c", "a"], redo: [], clean: false),
        .undo, .expect(undo: ["a"], redo: ["c"], clean: false),
        .undo, .expect(undo: [], redo: ["a", "c"], clean: false),
        .redo, .redo, .expect(undo: ["c", "a"], redo: [], clean: false),
        .setClean, .expect(undo: ["c", "a"], redo: [], clean: true),
    ]),
    Scenario(name: "clean below the present survives a push", steps: [
        .push("a"), .setClean, .push("b"), .undo, .push("c"),
        .expect(undo: ["c", "a"], redo: [], clean: false),
        .undo, .expect(undo: ["a"], redo: ["c"], clean: true),
    ]),
    Scenario(name: "clean kept when its state becomes the bottom of a trimmed stack", settings: limits(levels: 2), steps: [
        .push("a"), .setClean, .push("b"), .push("c"),
        .expect(undo: ["c", "b"], redo: [], clean: false),
        .undo, .undo, .expect(undo: [], redo: ["b", "c"], clean: true),
    ]),
    Scenario(name: "clean lost when its state falls off a trimmed stack", settings: limits(levels: 2), steps: [
        .push("a"), .setClean, .push("b"), .push("c"), .push("d"),
        .expect(undo: ["d", "c"], redo: [], clean: false),
        .undo, .undo, .expect(undo: [], redo: ["c", "d"], clean: false),
        .redo, .redo, .expect(undo: ["d", "c"], redo: [], clean: false),
    ]),
    Scenario(name: "the initial clean state falls off with the first trimmed group", settings: limits(levels: 1), steps: [
        .push("a"), .push("b"),
        .undo, .expect(undo: [], redo: ["b"], clean: false),
    ]),
    Scenario(name: "clear drops both sides and is clean", steps: [
        .push("a"), .push("b"), .undo,
        .clear, .expect(undo: [], redo: [], clean: true, bytes: 0),
        .push("c"), .undo, .expect(undo: [], redo: ["c"], clean: true),
    ]),
    Scenario(name: "successive keystrokes merge into one group", steps: [
        .push("t1", key: "typing"), .wait(300), .push("t2", key: "typing"), .wait(1000), .push("t3", key: "typing"),
        .expect(undo: ["t3"], redo: [], clean: false, bytes: 6),
        .undo, .expect(undo: [], redo: ["t3"], clean: true),
    ]),
    Scenario(name: "different or missing merge keys do not merge", steps: [
        .push("a", key: "k"), .push("b", key: "other"), .push("c"), .push("d"),
        .expect(undo: ["d", "c", "b", "a"], redo: [], clean: false),
    ]),
    Scenario(name: "merging refused at the clean state", steps: [
        .push("a", key: "k"), .setClean, .push("b", key: "k"),
        .expect(undo: ["b", "a"], redo: [], clean: false),
        .undo, .expect(undo: ["a"], redo: ["b"], clean: true),
    ]),
    Scenario(name: "merging refused after an undo", steps: [
        .push("a", key: "k"), .push("b"), .undo, .push("c", key: "k"),
        .expect(undo: ["c", "a"], redo: [], clean: false),
    ]),
    Scenario(name: "merging refused after a redo", steps: [
        .push("a", key: "k"), .undo, .redo, .push("b", key: "k"),
        .expect(undo: ["b", "a"], redo: [], clean: false),
        .push("c", key: "k"), .expect(undo: ["c", "a"], redo: [], clean: false),
    ]),
    Scenario(name: "merging refused outside the window", steps: [
        .push("a", key: "k"), .wait(1001), .push("b", key: "k"),
        .expect(undo: ["b", "a"], redo: [], clean: false),
    ]),
    Scenario(name: "byte limit drops the oldest groups with exact bytes", settings: limits(maxBytes: 10), steps: [
        .push("a", bytes: 4), .push("b", bytes: 4), .expect(undo: ["b", "a"], redo: [], clean: false, bytes: 8),
        .push("c", bytes: 4), .expect(undo: ["c", "b"], redo: [], clean: false, bytes: 8),
        .push("d", bytes: 10), .expect(undo: ["d"], redo: [], clean: false, bytes: 10),
        .push("e", bytes: 0), .expect(undo: ["e", "d"], redo: [], clean: false, bytes: 10),
    ]),
    Scenario(name: "a single group larger than max bytes is refused", settings: limits(maxBytes: 10), steps: [
        .push("a", bytes: 4),
        .fails(.push("huge", bytes: 11), .payloadTooLarge(bytes: 11, maxBytes: 10)),
        .expect(undo: ["a"], redo: [], clean: false, bytes: 4),
    ]),
    Scenario(name: "a merge making a group larger than max bytes is refused", settings: limits(maxBytes: 10), steps: [
        .push("a", key: "k", bytes: 6),
        .fails(.push("b", key: "k", bytes: 6), .payloadTooLarge(bytes: 12, maxBytes: 10)),
        .expect(undo: ["a"], redo: [], clean: false, bytes: 6),
        .push("c", key: "k", bytes: 4), .expect(undo: ["c"], redo: [], clean: false, bytes: 10),
    ]),
    Scenario(name: "obsolete undo group dropped, present clean kept", steps: [
        .push("a"), .push("b"), .setClean, .obsoleteUndo,
        .expect(undo: ["a"], redo: [], clean: true, bytes: 2),
        .undo, .expect(undo: [], redo: ["a"], clean: false),
    ]),
    Scenario(name: "obsolete undo group dropped, clean below it lost", steps: [
        .push("a"), .setClean, .push("b"), .obsoleteUndo,
        .expect(undo: ["a"], redo: [], clean: false),
        .undo, .expect(undo: [], redo: ["a"], clean: false),
        .redo, .expect(undo: ["a"], redo: [], clean: false),
    ]),
    Scenario(name: "obsolete undo group dropped, clean above it kept", steps: [
        .push("a"), .push("b"), .push("c"), .setClean, .undo, .obsoleteUndo,
        .expect(undo: ["a"], redo: ["c"], clean: false),
        .redo, .expect(undo: ["c", "a"], redo: [], clean: true),
    ]),
    Scenario(name: "obsolete redo group dropped, present clean kept", steps: [
        .push("a"), .push("b"), .undo, .setClean, .obsoleteRedo,
        .expect(undo: ["a"], redo: [], clean: true, bytes: 2),
    ]),
    Scenario(name: "obsolete redo group dropped, clean above it lost", steps: [
        .push("a"), .push("b"), .push("c"), .setClean, .undo, .undo, .obsoleteRedo,
        .expect(undo: ["a"], redo: ["c"], clean: false),
        .redo, .expect(undo: ["c", "a"], redo: [], clean: false),
    ]),
    Scenario(name: "obsolete redo group dropped, clean below it kept", steps: [
        .push("a"), .setClean, .push("b"), .push("c"), .undo, .obsoleteRedo,
        .expect(undo: ["b", "a"], redo: [], clean: false),
        .undo, .expect(undo: ["a"], redo: ["b"], clean: true),
    ]),
    Scenario(name: "obsolete with nothing in flight fails as the begin does", steps: [
        .fails(.obsoleteUndo, .nothingToUndo), .fails(.obsoleteRedo, .nothingToRedo),
    ]),
    Scenario(name: "lowered level limit drops oldest undo groups at once", steps: [
        .push("a"), .push("b"), .push("c"), .push("d"), .undo,
        .limits(levels: 2, maxBytes: .max),
        .expect(undo: ["c", "b"], redo: ["d"], clean: false),
        .redo, .expect(undo: ["d", "c"], redo: [], clean: false),
    ]),
    Scenario(name: "lowered byte limit drops undo groups, then the farthest redo groups", steps: [
        .push("a", bytes: 4), .push("b", bytes: 4), .push("c", bytes: 4), .push("d", bytes: 4), .undo, .undo, .undo,
        .limits(levels: 0, maxBytes: 8),
        .expect(undo: [], redo: ["b", "c"], clean: false, bytes: 8),
        .limits(levels: 0, maxBytes: 3),
        .expect(undo: [], redo: [], clean: false, bytes: 0),
    ]),
    Scenario(name: "a lowered byte limit loses a clean state on the far redo side", steps: [
        .push("a", bytes: 4), .push("b", bytes: 4), .setClean, .undo, .undo,
        .limits(levels: 0, maxBytes: 4),
        .expect(undo: [], redo: ["a"], clean: false, bytes: 4),
        .redo, .expect(undo: ["a"], redo: [], clean: false),
    ]),
    Scenario(name: "tags of every state", steps: [
        .expect(undo: [], redo: [], clean: true, tag: ""),
        .push("a", tag: "A"), .expect(undo: ["a"], redo: [], clean: false, tag: "A"),
        .push("b"), .expect(undo: ["b", "a"], redo: [], clean: false, tag: ""),
        .push("c", key: "k", tag: "C"), .push("c2", key: "k", tag: "C2"),
        .expect(undo: ["c2", "b", "a"], redo: [], clean: false, tag: "C2"),
        .undo, .expect(undo: ["b", "a"], redo: ["c2"], clean: false, tag: ""),
        .undo, .expect(undo: ["a"], redo: ["b", "c2"], clean: false, tag: "A"),
        .undo, .expect(undo: [], redo: ["a", "b", "c2"], clean: true, tag: ""),
        .redo, .redo, .redo, .expect(undo: ["c2", "b", "a"], redo: [], clean: false, tag: "C2"),
        .limits(levels: 1, maxBytes: .max),
        .expect(undo: ["c2"], redo: [], clean: false, tag: "C2"),
        .undo, .expect(undo: [], redo: ["c2"], clean: false, tag: ""),
    ]),
    Scenario(name: "a trimmed group's tag becomes the bottom state's tag", settings: limits(levels: 1), steps: [
        .push("a", tag: "A"), .push("b", tag: "B"), .undo,
        .expect(undo: [], redo: ["b"], clean: false, tag: "A"),
    ]),
    Scenario(name: "clear keeps the present state's tag", steps: [
        .push("a", tag: "A"), .clear, .expect(undo: [], redo: [], clean: true, tag: "A"),
    ]),
    Scenario(name: "an obsolete undo keeps the present state's tag", steps: [
        .push("a", tag: "A"), .push("b", tag: "B"), .obsoleteUndo,
        .expect(undo: ["a"], redo: [], clean: false, tag: "B"),
        .obsoleteUndo, .expect(undo: [], redo: [], clean: false, tag: "B"),
    ]),
]

/// Runs one step on the harness; returns a description of a mismatch, if any.
func run(_ step: Step, on harness: inout Harness) throws(UndoError) {
    switch step {
    case .push(let name, let key, let tag, let bytes):
        try harness.push(name, key: key, tag: tag, bytes: bytes)
    case .undo:
        try harness.undo()
    case .redo:
        try harness.redo()
    case .setClean:
        try harness.stack.setClean()
    case .clear:
        try harness.stack.clear()
    case .wait(let milliseconds):
        harness.wait(milliseconds)
    case .obsoleteUndo:
        let request = try harness.stack.beginUndo()
        #expect(harness.stack.dropInFlightAsObsolete() == PendingMove(direction: .undo, group: request.group, name: request.name))
    case .obsoleteRedo:
        let request = try harness.stack.beginRedo()
        #expect(harness.stack.dropInFlightAsObsolete() == PendingMove(direction: .redo, group: request.group, name: request.name))
    case .limits(let levels, let maxBytes):
        try harness.stack.setSettings(StackSettings(levels: levels, maxBytes: maxBytes, mergeWindowMilliseconds: 1000, minimumActionBytes: 0))
    case .fails(let inner, let expected):
        let before = harness.stack
        #expect(undoError { () throws(UndoError) in try run(inner, on: &harness) } == expected)
        #expect(harness.stack == before)
    case .expect(let undo, let redo, let clean, let tag, let bytes):
        #expect(harness.undoNames == undo)
        #expect(harness.redoNames == redo)
        #expect(harness.stack.isClean == clean)
        #expect(harness.stack.canUndo == !undo.isEmpty)
        #expect(harness.stack.canRedo == !redo.isEmpty)
        #expect(harness.stack.undoDepth == undo.count)
        #expect(harness.stack.redoDepth == redo.count)
        #expect(harness.stack.undoName == (undo.first ?? ""))
        #expect(harness.stack.redoName == (redo.first ?? ""))
        if let tag { #expect(harness.stack.presentStateTag == tag) }
        if let bytes { #expect(harness.stack.bytes == bytes) }
    }
}

@Test("Qt-style stack scenarios", arguments: scenarios)
func scenario(_ scenario: Scenario) {
    var harness = Harness(scenario.settings)
    for (index, step) in scenario.steps.enumerated() {
        do {
            try run(step, on: &harness)
        } catch {
            Issue.record("step \(index) (\(step)) threw \(error)")
            return
        }
    }
}
