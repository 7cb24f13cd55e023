import Testing
import UndoCore

@Suite("Limits, clear and the global budget's drops")
struct MaintenanceTests {
    @Test("setSettings reports what it dropped and keeps the new settings")
    func setSettingsReports() throws {
        var harness = Harness()
        for name in ["a", "b", "c", "d"] { try harness.push(name, bytes: 4) }
        try harness.undo()
        let settings = StackSettings(levels: 2, maxBytes: 6, mergeWindowMilliseconds: 5, minimumActionBytes: 0)
        #expect(try harness.stack.setSettings(settings) == [1, 2, 3])
        #expect(harness.stack.settings == settings)
        #expect(harness.undoNames == [])
        #expect(harness.redoNames == ["d"])
    }

    @Test("raising limits drops nothing")
    func raising() throws {
        var harness = Harness(limits(levels: 2, maxBytes: 10))
        try harness.push("a")
        try harness.push("b")
        #expect(try harness.stack.setSettings(limits()) == [])
        try harness.push("c")
        try harness.push("d")
        #expect(harness.stack.undoDepth == 4)
    }

    @Test("dropOldest drops undo groups oldest first, then redo groups farthest first")
    func dropOldestOrder() throws {
        var harness = Harness()
        for (name, bytes) in [("a", 2), ("b", 4), ("c", 6), ("d", 8)] { try harness.push(name, bytes: bytes) }
        try harness.undo()
        try harness.undo()
        #expect(Array(harness.stack.evictableGroupBytes) == [2, 4, 8, 6])
        #expect(harness.stack.evictableGroupBytes.count == 4)
        #expect(harness.stack.dropOldest(3) == [1, 2, 4])
        #expect(harness.undoNames == [])
        #expect(harness.redoNames == ["c"])
        #expect(harness.stack.bytes == 6)
        #expect(harness.stack.dropOldest(5) == [3])
        #expect(harness.stack.dropOldest(1) == [])
        #expect(harness.stack.bytes == 0)
    }

    @Test("dropOldest never touches the group in flight", arguments: Direction.allCases)
    func dropOldestSkipsInFlight(direction: Direction) throws {
        var harness = Harness()
        for name in ["a", "b", "c"] { try harness.push(name) }
        try harness.undo()
        let request = try direction == .undo ? harness.stack.beginUndo() : harness.stack.beginRedo()
        #expect(harness.stack.evictableGroupBytes.count == 2)
        #expect(harness.stack.dropOldest(10).count == 2)
        #expect(harness.stack.inFlight?.group == request.group)
        #expect(harness.stack.commitInFlight()?.group == request.group)
        #expect(harness.stack.undoDepth + harness.stack.redoDepth == 1)
    }

    @Test("dropOldest emptying the undo side ends merging; a trimmed clean bottom is lost")
    func dropOldestEndsMerging() throws {
        var harness = Harness()
        try harness.push("a", key: "k")
        #expect(harness.stack.dropOldest(1) == [1])
        #expect(harness.stack.isClean == false)
        #expect(try harness.push("b", key: "k").merged == false)
    }

    @Test("setClean marks only the present state")
    func setClean() throws {
        var harness = Harness()
        try harness.push("a")
        try harness.stack.setClean()
        #expect(harness.stack.cleanState == .state(1))
        try harness.push("b")
        #expect(harness.stack.isClean == false)
        try harness.undo()
        #expect(harness.stack.isClean)
    }

    @Test("clear drops everything, keeps the present state's name and is clean")
    func clear() throws {
        var harness = Harness()
        try harness.push("a", key: "k", tag: "A")
        try harness.push("b", key: "x")
        try harness.undo()
        try harness.stack.clear()
        #expect(harness.stack.presentStateID == 1)
        #expect(harness.stack.isClean)
        #expect(harness.stack.presentStateTag == "A")
        #expect(harness.stack.bytes == 0)
        #expect(try harness.push("c", key: "k").merged == false)
    }
}

@Suite("Lost clean states")
struct LostCleanTests {
    /// Checks the clean state is recorded as unreachable, and that the stack still snapshots and restores.
    func expectLost(_ stack: UndoStack) throws {
        #expect(stack.cleanState == .unreachable)
        #expect(stack.isClean == false)
        #expect(try UndoStack(restoring: stack.snapshot) == stack)
    }

    @Test("trimmed off the bottom")
    func trimmed() throws {
        var harness = Harness(limits(levels: 1))
        try harness.push("a")
        try harness.push("b")
        try expectLost(harness.stack)
    }

    @Test("discarded from the redo side by a push")
    func discarded() throws {
        var harness = Harness()
        try harness.push("a")
        try harness.stack.setClean()
        try harness.undo()
        try harness.push("b")
        try expectLost(harness.stack)
    }

    @Test("dropped from the far end of the redo side")
    func farRedo() throws {
        var harness = Harness()
        try harness.push("a")
        try harness.stack.setClean()
        try harness.undo()
        #expect(harness.stack.dropOldest(1) == [1])
        try expectLost(harness.stack)
    }

    @Test("beyond an obsolete redo group")
    func obsoleteRedo() throws {
        var harness = Harness()
        try harness.push("a")
        try harness.stack.setClean()
        try harness.undo()
        _ = try harness.stack.beginRedo()
        harness.stack.dropInFlightAsObsolete()
        try expectLost(harness.stack)
    }
}
