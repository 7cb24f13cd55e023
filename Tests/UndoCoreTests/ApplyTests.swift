import Testing
import UndoCore

@Suite("Undo and redo in two phases")
struct ApplyTests {
    /// A stack with one group "g" of three actions, a1 a2 a3, and the actions.
    func threeActions() throws -> (UndoStack, [Action]) {
        var ids = GroupIDGenerator()
        var stack = UndoStack()
        let actions = [action(10), action(20), action(30)]
        try stack.push(name: "g", actions: actions, now: 0, ids: &ids)
        return (stack, actions)
    }

    @Test("undo hands out undo payloads last action first; redo hands out redo payloads first action first")
    func order() throws {
        var (stack, actions) = try threeActions()
        let undo = try stack.beginUndo()
        #expect(undo == StartedMove(direction: .undo, group: 1, name: "g", payloads: [actions[2].undo, actions[1].undo, actions[0].undo]))
        #expect(stack.commitInFlight() == CompletedMove(direction: .undo, group: 1, name: "g"))
        let redo = try stack.beginRedo()
        #expect(redo == StartedMove(direction: .redo, group: 1, name: "g", payloads: [actions[0].redo, actions[1].redo, actions[2].redo]))
        #expect(stack.commitInFlight() == CompletedMove(direction: .redo, group: 1, name: "g"))
        #expect(stack.undoDepth == 1)
    }

    @Test("directions have their wire names")
    func wireNames() {
        #expect(Direction.undo.wireName == "undo")
        #expect(Direction.redo.wireName == "redo")
    }

    @Test("an aborted undo or redo leaves the stack identical", arguments: Direction.allCases)
    func abort(direction: Direction) throws {
        var harness = Harness()
        try harness.push("a", key: "k")
        try harness.push("b")
        if direction == .redo { try harness.undo() }
        let before = harness.stack
        let request = try direction == .undo ? harness.stack.beginUndo() : harness.stack.beginRedo()
        #expect(harness.stack != before)
        #expect(harness.stack.inFlight == PendingMove(direction: direction, group: request.group, name: request.name))
        #expect(harness.stack.abortInFlight() == PendingMove(direction: direction, group: request.group, name: request.name))
        #expect(harness.stack == before)
        #expect(harness.stack.inFlight == nil)
    }

    @Test("commit, abort and obsolete with nothing in flight change nothing")
    func nothingInFlight() throws {
        var harness = Harness()
        try harness.push("a")
        let before = harness.stack
        #expect(harness.stack.commitInFlight() == nil)
        #expect(harness.stack.abortInFlight() == nil)
        #expect(harness.stack.dropInFlightAsObsolete() == nil)
        #expect(harness.stack == before)
    }

    @Test("while a group is in flight every change is Busy and changes nothing", arguments: Direction.allCases)
    func busy(direction: Direction) throws {
        var harness = Harness()
        try harness.push("a")
        try harness.push("b")
        if direction == .redo { try harness.undo() }
        _ = try direction == .undo ? harness.stack.beginUndo() : harness.stack.beginRedo()
        let before = harness.stack
        let busy = UndoError.busy(direction)
        #expect(undoError { () throws(UndoError) in try harness.push("c") } == busy)
        #expect(undoError { () throws(UndoError) in try harness.push("", actions: 0) } == busy)
        #expect(undoError { () throws(UndoError) in try harness.stack.beginUndo() } == busy)
        #expect(undoError { () throws(UndoError) in try harness.stack.beginRedo() } == busy)
        #expect(undoError { () throws(UndoError) in try harness.stack.setClean() } == busy)
        #expect(undoError { () throws(UndoError) in try harness.stack.clear() } == busy)
        #expect(undoError { () throws(UndoError) in try harness.stack.setSettings(limits(levels: 1)) } == busy)
        #expect(harness.stack == before)
        #expect(harness.ids.next == 3)
    }

    @Test("a committed redo over a lowered level limit drops the oldest undo groups")
    func redoOverLevels() throws {
        var harness = try Harness.abcWithTwoUndone()
        try harness.stack.setSettings(limits(levels: 1))
        try harness.redo()
        #expect(harness.undoNames == ["b"])
        let move = try harness.redo()
        #expect(move == CompletedMove(direction: .redo, group: 3, name: "c", dropped: [2]))
        #expect(harness.undoNames == ["c"])
    }

    @Test("an obsolete undo with the clean state at the bottom loses it")
    func obsoleteBottomClean() throws {
        var harness = Harness()
        try harness.push("a")
        _ = try harness.stack.beginUndo()
        #expect(harness.stack.dropInFlightAsObsolete() == PendingMove(direction: .undo, group: 1, name: "a"))
        #expect(harness.stack.isClean == false)
        #expect(harness.stack.cleanState == .unreachable)
        #expect(harness.stack.bytes == 0)
    }

    @Test("an obsolete undo of the only group, the present being clean, keeps it clean")
    func obsoleteOnlyGroupClean() throws {
        var harness = Harness()
        try harness.push("a", tag: "A")
        try harness.stack.setClean()
        _ = try harness.stack.beginUndo()
        harness.stack.dropInFlightAsObsolete()
        #expect(harness.stack.isClean)
        #expect(harness.stack.presentStateTag == "A")
        try harness.push("b")
        try harness.undo()
        #expect(harness.stack.isClean)
    }
}
