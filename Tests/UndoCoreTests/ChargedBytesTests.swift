import Testing
import UndoCore

/// The byte limits count each action as its payload bytes but at least 16,
/// so that empty actions are not free; the history still shows payload bytes.
@Suite("Charged bytes")
struct ChargedBytesTests {
    @Test("an action counts its payload bytes, at least 16", arguments: [
        (0, 16), (1, 16), (15, 16), (16, 16), (17, 17), (1_000, 1_000),
    ])
    func floor(payload: Int, charged: UInt64) {
        let action = Action(undo: [UInt8](repeating: 1, count: payload / 2),
                            redo: [UInt8](repeating: 2, count: payload - payload / 2))
        #expect(action.chargedBytes() == charged)
        #expect(action.byteCount == UInt64(payload))
    }

    @Test("a million empty actions are a group of 16 MB, refused by a 64 KiB stack")
    func emptyActionsAreNotFree() throws {
        var stack = UndoStack(settings: StackSettings(levels: 0, maxBytes: 64 << 10, mergeWindowMilliseconds: 0))
        var ids = GroupIDGenerator()
        let empties = Array(repeating: Action(undo: [], redo: []), count: 1_000_000)
        #expect(throws: UndoError.payloadTooLarge(bytes: 16_000_000, maxBytes: 64 << 10)) {
            try stack.push(name: "Nothing", actions: empties, now: 0, ids: &ids)
        }
        try stack.push(name: "Some", actions: Array(empties.prefix(10)), now: 0, ids: &ids)
        #expect(stack.bytes == 160)
        #expect(stack.history.undo.first?.bytes == 0, "History shows the payload bytes alone")
    }

    @Test("a merge adds what the merged actions count for")
    func merging() throws {
        var stack = UndoStack(settings: StackSettings(levels: 0, maxBytes: .max, mergeWindowMilliseconds: 1_000))
        var ids = GroupIDGenerator()
        let hints = PushHints(mergeKey: "typing", mergeWindowMilliseconds: nil, stateTag: "")
        try stack.push(name: "a", actions: [Action(undo: [1], redo: [1])], hints: hints, now: 0, ids: &ids)
        try stack.push(name: "ab", actions: [Action(undo: [2], redo: [2])], hints: hints, now: 1, ids: &ids)
        #expect(stack.undoDepth == 1)
        #expect(stack.bytes == 32)
        #expect(stack.history.undo.first?.bytes == 4)
    }

    @Test("dropping a side keeps the byte count true")
    func dropSide() throws {
        var stack = UndoStack(settings: StackSettings(levels: 0, maxBytes: .max, mergeWindowMilliseconds: 0))
        var ids = GroupIDGenerator()
        for name in ["a", "b", "c"] { try stack.push(name: name, actions: [Action(undo: [1], redo: [1])], now: 0, ids: &ids) }
        _ = try stack.beginUndo()
        _ = stack.commitInFlight()
        #expect(stack.dropSide(.undo).count == 2)
        #expect(stack.bytes == 16)
        #expect(stack.undoDepth == 0 && stack.redoDepth == 1)
        #expect(stack.dropSide(.redo).count == 1)
        #expect(stack.bytes == 0)
    }
}
