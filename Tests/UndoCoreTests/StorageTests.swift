import Testing
import UndoCore

/// Groups whose actions a store keeps on disk until they are needed.
@Suite("Groups held by a store")
struct StorageTests {
    /// A stack as a store restores it: every group unloaded.
    func restored() throws -> (stack: UndoStack, original: UndoStack) {
        var original = UndoStack()
        var ids = GroupIDGenerator()
        for (index, name) in ["a", "b", "c"].enumerated() {
            try original.push(name: name, actions: [action(UInt8(index)), action(UInt8(index + 10), bytes: 3)],
                              now: Int64(index), ids: &ids)
        }
        _ = try original.beginUndo()
        original.commitInFlight()
        var snapshot = original.snapshot
        let unload = { (group: ActionGroup) in
            ActionGroup.unloaded(id: group.id, name: group.name, time: group.time, mergeKey: group.mergeKey,
                                 stateTag: group.stateTag, bytes: group.bytes, chargedBytes: group.chargedBytes)
        }
        snapshot.undo = snapshot.undo.map(unload)
        snapshot.redo = snapshot.redo.map(unload)
        return (try UndoStack(restoring: snapshot), original)
    }

    @Test("a restored stack knows its groups, sizes and sides without their actions")
    func unloadedRestore() throws {
        let (stack, original) = try restored()
        #expect(stack.bytes == original.bytes)
        #expect(stack.history == original.history)
        #expect(stack.topUndoGroup?.isLoaded == false)
        #expect(stack.group(withID: 1)?.side == .undo)
        #expect(stack.group(withID: 2)?.side == .undo)
        #expect(stack.group(withID: 3)?.side == .redo)
        #expect(stack.group(withID: 4) == nil)
        #expect(stack.group(withID: 0) == nil)
    }

    @Test("an unloaded group is neither applied nor merged into")
    func guards() throws {
        var (stack, _) = try restored()
        let before = stack
        do {
            _ = try stack.beginUndo()
            Issue.record("an unloaded undo group went in flight")
        } catch {
            #expect(error == .actionsNotLoaded(group: 2))
        }
        do {
            _ = try stack.beginRedo()
            Issue.record("an unloaded redo group went in flight")
        } catch {
            #expect(error == .actionsNotLoaded(group: 3))
        }
        #expect(stack == before, "a refused begin changes nothing")
        #expect(UndoError.actionsNotLoaded(group: 2).name == "StorageFailed")
        #expect(UndoError.actionsNotLoaded(group: 2).sentence(stack: "S").contains("group 2 in S"))
    }

    @Test("loading brings the actions back exactly")
    func loading() throws {
        var (stack, original) = try restored()
        let wrongSize = [action(9)]
        let wrong = stack.loadActions(wrongSize, forGroup: 2)
        let none = stack.loadActions([], forGroup: 2)
        let missing = stack.loadActions(wrongSize, forGroup: 99)
        #expect(!wrong && !none && !missing, "actions that do not add up, or no group, are refused")
        for id: UInt64 in [1, 2, 3] {
            let actions = try #require(original.group(withID: id)?.group.actions)
            let first = stack.loadActions(actions, forGroup: id)
            let second = stack.loadActions(actions, forGroup: id)
            #expect(first && !second, "a loaded group is not loaded twice")
        }
        #expect(stack == original)
        let request = try stack.beginUndo()
        #expect(request.payloads == [[11], [1]], "last action first")
    }

    @Test("a push does not merge into an unloaded top group")
    func noMergeIntoUnloaded() throws {
        var original = UndoStack()
        var ids = GroupIDGenerator()
        try original.push(name: "t", actions: [action(1)], hints: PushHints(mergeKey: "k"), now: 0, ids: &ids)
        var snapshot = original.snapshot
        snapshot.undo = snapshot.undo.map {
            .unloaded(id: $0.id, name: $0.name, time: $0.time, mergeKey: $0.mergeKey, stateTag: $0.stateTag, bytes: $0.bytes,
                      chargedBytes: $0.chargedBytes)
        }
        var stack = try UndoStack(restoring: snapshot)
        let result = try stack.push(name: "t", actions: [action(2)], hints: PushHints(mergeKey: "k"), now: 1, ids: &ids)
        #expect(result.merged == false)
        #expect(stack.undoDepth == 2)
    }
}

@Suite("Restoring from untrusted rows")
struct UntrustedRestoreTests {
    @Test("a new stack can carry the tag of the document's present state")
    func baseTag() {
        let stack = UndoStack(baseStateTag: "sha:1")
        #expect(stack.presentStateTag == "sha:1")
        #expect(stack.isClean)
    }

    @Test("byte counts that overflow are refused, not trapped on")
    func overflowingBytes() {
        let huge = ActionGroup.unloaded(id: 1, name: "a", time: 0, bytes: .max, chargedBytes: .max)
        let more = ActionGroup.unloaded(id: 2, name: "b", time: 0, bytes: .max, chargedBytes: .max)
        for (undo, redo) in [([huge, more], []), ([huge], [more])] as [([ActionGroup], [ActionGroup])] {
            let snapshot = StackSnapshot(
                settings: StackSettings(levels: 0, maxBytes: .max, mergeWindowMilliseconds: 0, minimumActionBytes: 0), undo: undo, redo: redo,
                baseStateID: 0, baseStateTag: "", clean: .unreachable, topIsMergeable: false)
            #expect(throws: SnapshotError.self) { try UndoStack(restoring: snapshot) }
        }
    }
}

@Suite("The action buffer")
struct ActionCodingTests {
    @Test("actions round-trip through one buffer, empty payloads included")
    func roundTrip() {
        let actions = [Action(undo: [1, 2], redo: []), Action(undo: [], redo: [3]), Action(undo: [4], redo: [5, 6, 7])]
        let buffer = ActionCoding.encode(actions)
        #expect(ActionCoding.decode(buffer) == actions)
        #expect(ActionCoding.payloadBytes(buffer) == 7)
        #expect(ActionCoding.directionSizes(buffer, framing: 4) == (undo: 3 + 12, redo: 4 + 12))
        #expect(ActionCoding.decode([]) == [])
    }

    @Test("a buffer as PushGroup reads it off the wire is the actions' own, with their sums")
    func encodedActions() throws {
        let actions = [Action(undo: [1, 2], redo: []), Action(undo: [], redo: [3]), Action(undo: [], redo: [])]
        let wire: [UInt8] = [2, 0, 0, 0, 1, 2, 0, 0, 0, 0] + [0, 0, 0, 0, 1, 0, 0, 0, 3] + [UInt8](repeating: 0, count: 8)
        let read = try #require(EncodedActions(encoded: wire))
        #expect(read == EncodedActions(actions))
        #expect(read.buffer == ActionCoding.encode(actions))
        #expect((read.count, read.undoBytes, read.redoBytes, read.bytes) == (3, 2, 1, 3))
        #expect(read.chargedBytes() == 48)
        #expect(read.chargedBytes(minimum: 2) == 2 + 2 + 2)
        #expect(EncodedActions(encoded: [])?.count == 0)
    }

    @Test("a damaged buffer is refused, not trapped on")
    func damaged() {
        let buffer = ActionCoding.encode([Action(undo: [1, 2, 3], redo: [4])])
        for cut in 1..<buffer.count {
            let short = Array(buffer.prefix(cut))
            #expect(ActionCoding.decode(short) == nil)
            #expect(ActionCoding.payloadBytes(short) == nil)
            #expect(EncodedActions(encoded: short) == nil)
        }
        var stack = UndoStack()
        #expect(stack.loadActions(encoded: [9, 9], forGroup: 1) == false)
    }
}
