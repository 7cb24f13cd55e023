import Testing
import UndoCore

@Suite("Snapshots")
struct SnapshotTests {
    /// A stack that has used every kind of state: trimmed, merged, tagged, clean, with a redo side.
    func richStack() throws -> UndoStack {
        var harness = Harness(limits(levels: 4, maxBytes: 100))
        try harness.push("a", tag: "A")
        try harness.push("b", key: "k", tag: "B")
        try harness.push("b2", key: "k", tag: "B2")
        try harness.stack.setClean()
        try harness.push("c", bytes: 6)
        try harness.push("d", actions: 3)
        try harness.push("e")
        try harness.undo()
        return harness.stack
    }

    @Test("a snapshot restores an identical stack")
    func roundTrip() throws {
        let stack = try richStack()
        let snapshot = stack.snapshot
        #expect(snapshot.undo.map(\.name) == ["b2", "c", "d"])
        #expect(snapshot.redo.map(\.name) == ["e"])
        #expect(snapshot.baseStateID == 1)
        #expect(snapshot.baseStateTag == "A")
        #expect(snapshot.clean == .state(2))
        #expect(try UndoStack(restoring: snapshot) == stack)
    }

    @Test("a mergeable top survives the round trip")
    func mergeableRoundTrip() throws {
        var harness = Harness()
        try harness.push("a", key: "k")
        var restored = try UndoStack(restoring: harness.stack.snapshot)
        #expect(restored == harness.stack)
        #expect(try restored.push(name: "b", actions: [action(1)], hints: PushHints(mergeKey: "k"), now: harness.clock.now, ids: &harness.ids).merged)
    }

    @Test("a snapshot taken in flight restores the stack as after an abort")
    func inFlight() throws {
        var stack = try richStack()
        _ = try stack.beginRedo()
        let restored = try UndoStack(restoring: stack.snapshot)
        stack.abortInFlight()
        #expect(restored == stack)
    }

    /// A valid snapshot to break in the table below.
    static func valid() -> StackSnapshot {
        StackSnapshot(
            settings: limits(levels: 2, maxBytes: 10),
            undo: [ActionGroup(id: 5, name: "a", actions: [action(1)], time: 0, minimumActionBytes: 0)],
            redo: [ActionGroup(id: 6, name: "b", actions: [action(1)], time: 0, minimumActionBytes: 0)],
            baseStateID: 4, baseStateTag: "", clean: .state(6), topIsMergeable: false)
    }

    @Test("the valid base snapshot restores")
    func validRestores() throws {
        let stack = try UndoStack(restoring: Self.valid())
        #expect(stack.snapshot == Self.valid())
        #expect(stack.bytes == 4)
    }

    @Test("a snapshot that breaks an invariant is refused", arguments: [
        "ids out of order", "id not above the base", "clean state missing", "too many levels",
        "too many bytes", "mergeable with a redo side", "mergeable with no undo side",
    ])
    func refused(broken: String) {
        var snapshot = Self.valid()
        switch broken {
        case "ids out of order": snapshot.redo = [ActionGroup(id: 3, name: "b", actions: [action(1)], time: 0, minimumActionBytes: 0)]
        case "id not above the base": snapshot.baseStateID = 5
        case "clean state missing": snapshot.clean = .state(9)
        case "too many levels": snapshot.settings.levels = 0; snapshot.undo += snapshot.redo; snapshot.redo = []
            snapshot.undo.append(ActionGroup(id: 7, name: "c", actions: [action(1)], time: 0, minimumActionBytes: 0)); snapshot.settings.levels = 2
        case "too many bytes": snapshot.settings.maxBytes = 3
        case "mergeable with a redo side": snapshot.topIsMergeable = true
        default: snapshot.undo = []; snapshot.topIsMergeable = true; snapshot.redo = []
        }
        #expect(throws: SnapshotError.self) { try UndoStack(restoring: snapshot) }
    }

    @Test("an unreachable clean state and the base state are valid clean states", arguments: [CleanState.unreachable, .state(4)])
    func cleanStates(clean: CleanState) throws {
        var snapshot = Self.valid()
        snapshot.clean = clean
        #expect(try UndoStack(restoring: snapshot).cleanState == clean)
    }

    @Test("a snapshot error reads as its reason")
    func errorText() {
        let error = SnapshotError(reason: "Group 3 has no actions.")
        #expect(error.description == "Group 3 has no actions.")
    }
}
