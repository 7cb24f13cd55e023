import Testing
import UndoCore

@Suite("Push and merging")
struct PushTests {
    @Test("a push returns a fresh id, and a merge returns the top group's id")
    func pushResult() throws {
        var harness = Harness()
        let first = try harness.push("t1", key: "k")
        #expect(first == PushResult(group: 1, merged: false, discarded: [], dropped: []))
        let merged = try harness.push("t2", key: "k")
        #expect(merged == PushResult(group: 1, merged: true, discarded: [], dropped: []))
        #expect(harness.ids.next == 2)
    }

    @Test("a merged group keeps its id, takes the new name, time and tag, and appends the actions")
    func mergedGroupFields() throws {
        var ids = GroupIDGenerator(next: 7)
        var stack = UndoStack()
        try stack.push(name: "t1", actions: [action(1)], hints: PushHints(mergeKey: "k", stateTag: "x"), now: 1000, ids: &ids)
        try stack.push(
            name: "t2", actions: [action(3), action(5, bytes: 4)], hints: PushHints(mergeKey: "k", stateTag: "y"),
            now: 2000, ids: &ids)
        let top = try #require(stack.topUndoGroup)
        #expect(top == ActionGroup(
            id: 7, name: "t2", actions: [action(1), action(3), action(5, bytes: 4)], time: 2000, mergeKey: "k", stateTag: "y"))
        #expect(top.bytes == 8)
        #expect(stack.history.undo == [HistoryItem(group: 7, name: "t2", time: 2000, bytes: 8)])
        #expect(ids.next == 8)
    }

    @Test("the window is measured from the last merge and includes its end", arguments: [
        (999 as Int64, true), (1000, true), (1001, false),
    ])
    func windowEdge(milliseconds: Int64, merges: Bool) throws {
        var harness = Harness()
        try harness.push("a", key: "k")
        harness.wait(600)
        try harness.push("b", key: "k")
        harness.wait(milliseconds)
        #expect(try harness.push("c", key: "k").merged == merges)
    }

    @Test("a window override replaces the configured window for that push", arguments: [
        (nil as UInt32?, 3000 as Int64, false), (5000, 3000, true), (5000, 5001, false), (10, 5, true), (10, 11, false),
        (0, 0, false),
    ])
    func windowOverride(window: UInt32?, milliseconds: Int64, merges: Bool) throws {
        var harness = Harness()
        try harness.push("a", key: "k")
        harness.wait(milliseconds)
        #expect(try harness.push("b", key: "k", window: window).merged == merges)
    }

    @Test("a configured window of 0 never merges, even at the same instant")
    func zeroWindow() throws {
        var harness = Harness(StackSettings(levels: 0, maxBytes: .max, mergeWindowMilliseconds: 0, minimumActionBytes: 0))
        try harness.push("a", key: "k")
        #expect(try harness.push("b", key: "k").merged == false)
    }

    @Test("a clock that went backwards does not merge")
    func clockBackwards() throws {
        var harness = Harness()
        try harness.push("a", key: "k")
        harness.wait(-1)
        #expect(try harness.push("b", key: "k").merged == false)
    }

    @Test("a group time so far back that the difference overflows does not merge")
    func overflowingDifference() throws {
        var ids = GroupIDGenerator()
        var stack = UndoStack()
        try stack.push(name: "a", actions: [action(1)], hints: PushHints(mergeKey: "k"), now: .min, ids: &ids)
        let result = try stack.push(name: "b", actions: [action(1)], hints: PushHints(mergeKey: "k"), now: .max, ids: &ids)
        #expect(result.merged == false)
    }

    @Test("an aborted undo does not stop merging")
    func abortKeepsMerging() throws {
        var harness = Harness()
        try harness.push("a", key: "k")
        _ = try harness.stack.beginUndo()
        harness.stack.abortInFlight()
        #expect(try harness.push("b", key: "k").merged)
    }

    @Test("an obsolete drop stops merging into the new top")
    func obsoleteStopsMerging() throws {
        var harness = Harness()
        try harness.push("a", key: "k")
        try harness.push("b")
        _ = try harness.stack.beginUndo()
        harness.stack.dropInFlightAsObsolete()
        #expect(try harness.push("c", key: "k").merged == false)
    }

    @Test("a push reports the redo groups it discarded, nearest first")
    func discarded() throws {
        var harness = try Harness.abcWithTwoUndone()
        #expect(try harness.push("d") == PushResult(group: 4, merged: false, discarded: [2, 3], dropped: []))
        #expect(harness.stack.bytes == 4)
    }

    @Test("a push reports the groups the limits dropped, oldest first")
    func droppedByLimits() throws {
        var harness = Harness(limits(levels: 3, maxBytes: 10))
        try harness.push("a", bytes: 2)
        try harness.push("b", bytes: 2)
        try harness.push("c", bytes: 2)
        #expect(try harness.push("d", bytes: 2).dropped == [1])
        #expect(try harness.push("e", bytes: 9).dropped == [2, 3, 4])
        #expect(harness.undoNames == ["e"])
    }

    @Test("merging can trim older groups by bytes but never the merged group")
    func mergeTrims() throws {
        var harness = Harness(limits(maxBytes: 10))
        try harness.push("a", bytes: 4)
        try harness.push("b", key: "k", bytes: 4)
        let result = try harness.push("c", key: "k", bytes: 4)
        #expect(result == PushResult(group: 2, merged: true, discarded: [], dropped: [1]))
        #expect(harness.stack.bytes == 8)
    }

    @Test("a failed push uses no id and changes nothing", arguments: [
        ("", 1, UndoError.invalidName(.empty)), ("ok", 0, .emptyGroup), ("ok", 20, .payloadTooLarge(bytes: 40, maxBytes: 30)),
    ])
    func failedPush(name: String, actions: Int, error: UndoError) throws {
        var harness = Harness(limits(maxBytes: 30))
        try harness.push("a")
        try harness.undo()
        let before = harness.stack
        #expect(undoError { () throws(UndoError) in try harness.push(name, actions: actions) } == error)
        #expect(harness.stack == before)
        #expect(harness.ids.next == 2)
    }

    @Test("an exhausted id source refuses a new group but still allows a merge")
    func exhaustedIDs() throws {
        var ids = GroupIDGenerator(next: UInt64.max - 1)
        var stack = UndoStack()
        let hints = PushHints(mergeKey: "k")
        #expect(try stack.push(name: "a", actions: [action(1)], hints: hints, now: 0, ids: &ids).group == UInt64.max - 1)
        #expect(try stack.push(name: "b", actions: [action(1)], hints: hints, now: 0, ids: &ids).merged)
        let before = stack
        #expect(undoError { () throws(UndoError) in
            try stack.push(name: "c", actions: [action(1)], now: 0, ids: &ids)
        } == .groupIDsExhausted)
        #expect(stack == before)
    }

    @Test("group ids are unique and increasing across two stacks sharing a generator")
    func idsAcrossStacks() throws {
        var ids = GroupIDGenerator()
        var one = UndoStack()
        var two = UndoStack()
        var seen: [UInt64] = []
        for round in 0..<5 {
            seen.append(try one.push(name: "one", actions: [action(1)], now: Int64(round), ids: &ids).group)
            seen.append(try two.push(name: "two", actions: [action(1)], now: Int64(round), ids: &ids).group)
            seen.append(try two.push(name: "two", actions: [action(1)], now: Int64(round), ids: &ids).group)
        }
        #expect(seen == Array(1...15))
        #expect(!seen.contains(0))
    }

    @Test("the generator resumes where a store left it and never hands out 0")
    func generatorResume() throws {
        var resumed = GroupIDGenerator(next: 42)
        #expect(try resumed.take() == 42)
        #expect(resumed.next == 43)
        var zero = GroupIDGenerator(next: 0)
        #expect(try zero.take() == 1)
        var last = GroupIDGenerator(next: .max)
        #expect(undoError { () throws(UndoError) in try last.take() } == .groupIDsExhausted)
    }

    @Test("history shows each side top first with ids, names, times and bytes")
    func history() throws {
        var harness = Harness()
        let start = harness.clock.now
        try harness.push("a", bytes: 2)
        harness.wait(5)
        try harness.push("b", bytes: 4)
        harness.wait(5)
        try harness.push("c", bytes: 6)
        try harness.undo()
        #expect(harness.stack.history == History(
            undo: [
                HistoryItem(group: 2, name: "b", time: start + 5000, bytes: 4),
                HistoryItem(group: 1, name: "a", time: start, bytes: 2),
            ],
            redo: [HistoryItem(group: 3, name: "c", time: start + 10_000, bytes: 6)]))
        #expect(harness.stack.topRedoGroup?.id == 3)
        #expect(harness.stack.presentStateID == 2)
    }
}
