import Testing
import UndoCore
@testable import UndoCore

@Suite("Group storage")
struct GroupDequeTests {
    func group(_ id: UInt64) -> ActionGroup {
        ActionGroup(id: id, name: "g\(id)", actions: [action(UInt8(truncatingIfNeeded: id))], time: 0, minimumActionBytes: 0)
    }

    @Test("removing at both ends keeps order, compacts, and equality ignores the layout")
    func deque() {
        var deque = GroupDeque()
        #expect(deque.isEmpty && deque.first == nil && deque.last == nil)
        #expect(deque.removeFirst() == nil)
        #expect(deque.removeLast() == nil)
        deque.updateLast { $0.name = "never" }
        #expect(deque.isEmpty)
        for id in 1...100 { deque.append(group(UInt64(id))) }
        for id in 1...60 { #expect(deque.removeFirst()?.id == UInt64(id)) }
        #expect(deque.count == 40)
        #expect(deque.first?.id == 61)
        #expect(deque.last?.id == 100)
        #expect(deque.removeLast()?.id == 100)
        #expect(deque == GroupDeque((61...99).map { group(UInt64($0)) }))
        #expect(deque != GroupDeque((61...98).map { group(UInt64($0)) }))
        deque.updateLast { $0.name = "renamed" }
        #expect(deque.last?.name == "renamed")
        while deque.removeFirst() != nil {}
        #expect(deque.isEmpty)
        #expect(deque == GroupDeque())
    }

    @Test("a stack of many groups trims its oldest in constant time per push")
    func manyGroups() throws {
        var ids = GroupIDGenerator()
        var stack = UndoStack(settings: StackSettings(levels: 1000, maxBytes: .max, mergeWindowMilliseconds: 0, minimumActionBytes: 0))
        let payload = [action(1)]
        for index in 0..<20_000 {
            try stack.push(name: "g", actions: payload, now: Int64(index), ids: &ids)
        }
        #expect(stack.undoDepth == 1000)
        #expect(stack.bytes == 2000)
        #expect(stack.history.undo.last?.group == 19_001)
    }
}
