import BusHarness
import DBus
import Foundation
import Testing
import UndoKit

/// A document as an app keeps it: edits register their inverse, as they
/// would with NSUndoManager.
@MainActor
final class Shelf {
    var items: [String] = []
    let undo: UndoManager

    init(_ undo: UndoManager) { self.undo = undo }

    func add(_ item: String) {
        items.append(item)
        undo.registerUndo(withTarget: self) { $0.remove(item) }
    }

    func remove(_ item: String) {
        items.removeAll { $0 == item }
        undo.registerUndo(withTarget: self) { $0.add(item) }
    }
}

/// Waits for the manager's next change of `kind` (at most 10 s, scaled by `TestTime`).
@MainActor
func next(_ kind: UndoManager.Change.Kind, in changes: AsyncStream<UndoManager.Change>) async -> UndoManager.Change? {
    await withTaskGroup(of: UndoManager.Change?.self) { group in
        group.addTask {
            for await change in changes where change.kind == kind { return change }
            return nil
        }
        group.addTask {
            try? await Task.sleep(for: .milliseconds(TestTime.milliseconds(10_000)))
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

/// UndoKit's `UndoManager` in the scenarios of NSUndoManager's
/// documentation, against the built undod.
@Suite struct ManagerTests {
    @MainActor @Test func aGroupThatSpansAnAwaitClosesWhenItEnds() async throws {
        let f = try KitFixture()
        let manager = try await UndoManager(client: try f.client(), appId: "org.example.Spanning")
        let shelf = Shelf(manager)
        let changes = manager.changes()
        manager.beginUndoGrouping()
        shelf.add("a")
        // The await in the middle: the end of this turn comes and goes
        // while the group is open.
        await Task.yield()
        shelf.add("b")
        manager.endUndoGrouping()
        manager.setActionName("Spanning")
        #expect(await next(.registered, in: changes)?.undoActionName == "Spanning")
        shelf.add("c")
        manager.setActionName("Later")
        #expect(await next(.registered, in: changes)?.undoActionName == "Later")
        #expect(manager.undoActionName == "Later", "a later turn's change is a group of its own")
        try await manager.undo()
        #expect(shelf.items == ["a", "b"])
        #expect(manager.undoActionName == "Spanning")
    }

    @MainActor @Test func registrationsInOneTurnAreOneGroupAndUndoRegistersRedo() async throws {
        let f = try KitFixture()
        let manager = try await UndoManager(client: try f.client(), appId: "org.example.Shelf")
        let shelf = Shelf(manager)
        let changes = manager.changes()
        #expect(manager.undoMenuItemTitle == "Undo" && !manager.canUndo)

        shelf.add("a")
        shelf.add("b")
        manager.setActionName("Add Two")
        #expect(await next(.registered, in: changes) != nil)
        #expect(manager.canUndo && manager.undoActionName == "Add Two" && manager.undoMenuItemTitle == "Undo Add Two")
        let state = try await manager.stack.state()
        #expect(state.undoDepth == 1 && state.undoName == "Add Two", "one group in undod")

        try await manager.undo()
        #expect(shelf.items.isEmpty)
        #expect(!manager.canUndo && manager.canRedo && manager.redoMenuItemTitle == "Redo Add Two")
        try await manager.redo()
        #expect(shelf.items == ["a", "b"])
        try await manager.undo()
        #expect(shelf.items.isEmpty, "the redo registered the undo again")
    }

    @MainActor @Test func nestedGroupsJoinTheGroupOfTheTurn() async throws {
        let f = try KitFixture()
        let manager = try await UndoManager(client: try f.client(), appId: "org.example.Nested")
        let shelf = Shelf(manager)
        let changes = manager.changes()
        manager.beginUndoGrouping()
        shelf.add("a")
        manager.beginUndoGrouping()
        #expect(manager.groupingLevel == 2)
        shelf.add("b")
        manager.endUndoGrouping()
        manager.endUndoGrouping()
        manager.beginUndoGrouping()
        shelf.add("c")
        manager.endUndoGrouping()
        manager.setActionName("Fill")
        #expect(await next(.registered, in: changes) != nil)
        // A later turn: a group of its own.
        shelf.add("d")
        manager.setActionName("One More")
        #expect(await next(.registered, in: changes) != nil)
        try await manager.undo()
        #expect(shelf.items == ["a", "b", "c"])
        #expect(manager.undoActionName == "Fill")
        try await manager.undo()
        #expect(shelf.items.isEmpty)
        #expect(try await manager.stack.state().redoDepth == 2)
    }

    @MainActor @Test func withoutGroupingByEventExplicitGroupsCloseAtTheirEnd() async throws {
        let f = try KitFixture()
        let manager = try await UndoManager(client: try f.client(), appId: "org.example.Explicit")
        manager.groupsByEvent = false
        let shelf = Shelf(manager)
        manager.beginUndoGrouping()
        shelf.add("a")
        shelf.add("b")
        manager.endUndoGrouping()
        manager.setActionName("Pair")
        shelf.add("c")
        try await manager.undo()
        #expect(shelf.items == ["a", "b"])
        #expect(manager.undoActionName == "Pair")
        try await manager.undo()
        #expect(shelf.items.isEmpty)
        // The name given right after the group closed reached undod too.
        #expect(try await manager.stack.state().redoName == "Pair")
    }

    @MainActor @Test func disabledRegistrationRecordsNothing() async throws {
        let f = try KitFixture()
        let manager = try await UndoManager(client: try f.client(), appId: "org.example.Disabled")
        let shelf = Shelf(manager)
        manager.disableUndoRegistration()
        shelf.add("loaded")
        #expect(!manager.isUndoRegistrationEnabled && !manager.canUndo)
        manager.enableUndoRegistration()
        shelf.add("typed")
        try await manager.undo()
        #expect(shelf.items == ["loaded"])
    }

    @MainActor @Test func typingWhileAnUndoIsAppliedLosesNothing() async throws {
        let f = try KitFixture()
        let manager = try await UndoManager(client: try f.client(), appId: "org.example.Typing")
        manager.groupsByEvent = false
        let shelf = Shelf(manager)
        let pushed = manager.changes()
        shelf.add("a")
        shelf.add("b")
        // The pushes travel on the manager's connection and the undo below on
        // another: once undod holds both, the undo cannot arrive first.
        while try await manager.stack.state().undoDepth < 2 {
            guard await next(.synchronized, in: pushed) != nil else { break }
        }
        // While the undo of "b" is applied (undod refuses pushes then), the
        // user adds "c": its push is refused as Busy and sent again.
        let other = try f.client()
        let undo = Task { try await other.undoFocused() }
        shelf.add("c")
        _ = try await undo.value
        let changes = manager.changes()
        if try await manager.stack.state().undoDepth != 2 { _ = await next(.synchronized, in: changes) }
        let names = try await manager.stack.history().undo.count
        #expect(names == 2, "a and c are both in undod")
        try await manager.undo()
        #expect(!shelf.items.contains("c"))
    }

    @MainActor @Test func aStackAdoptedFromAnEarlierRunIsCleared() async throws {
        let f = try KitFixture()
        let path: String
        do {
            let client = try f.client()
            let first = try await UndoManager(client: client, appId: "org.example.Again")
            let shelf = Shelf(first)
            shelf.add("old")
            try await first.undo()
            try await first.redo()
            path = first.stack.path
            client.close()
        }
        // `close` returns before the connection has gone: until undod has seen
        // it leave, the stack is still that connection's (AlreadyOwned).
        #expect(f.waitUntilDetached(path))
        let second = try await UndoManager(client: try f.client(), appId: "org.example.Again")
        #expect(!second.canUndo)
        let state = try await second.stack.state()
        #expect(state.undoDepth == 0 && state.redoDepth == 0, "groups whose closures are gone are not left to the global key")
    }

    @MainActor @Test func withoutGroupingByEventEachRegistrationIsAGroup() async throws {
        let f = try KitFixture()
        let manager = try await UndoManager(client: try f.client(), appId: "org.example.Single")
        manager.groupsByEvent = false
        let shelf = Shelf(manager)
        shelf.add("a")
        shelf.add("b")
        try await manager.undo()
        #expect(shelf.items == ["a"])
    }

    @MainActor @Test func removeAllActionsForgetsEverything() async throws {
        let f = try KitFixture()
        let manager = try await UndoManager(client: try f.client(), appId: "org.example.Remove")
        let shelf = Shelf(manager)
        shelf.add("a")
        try await manager.undo()
        shelf.add("b")
        try await manager.removeAllActions()
        #expect(!manager.canUndo && !manager.canRedo && manager.undoMenuItemTitle == "Undo")
        let state = try await manager.stack.state()
        #expect(state.undoDepth == 0 && state.redoDepth == 0)
        #expect(await kitError { () async throws(UndoKitError) in try await manager.undo() } == .nothingToUndo)
    }

    @MainActor @Test func anUndoFromOutsideMovesTheTitles() async throws {
        let f = try KitFixture()
        let manager = try await UndoManager(client: try f.client(), appId: "org.example.Outside")
        let shelf = Shelf(manager)
        let changes = manager.changes()
        shelf.add("a")
        manager.setActionName("Add")
        #expect(await next(.registered, in: changes) != nil)
        // The global key, or undoctl: another connection asks undod.
        let undone = try await f.client().undoFocused()
        #expect(undone.stack == manager.stack.path)
        #expect(shelf.items.isEmpty)
        let change = await next(.undone, in: changes)
        #expect(change?.fromOutside == true && change?.canRedo == true && change?.redoActionName == "Add")
        #expect(manager.redoMenuItemTitle == "Redo Add" && !manager.canUndo)
    }

    @MainActor @Test func levelsOfUndoKeepsTheNewest() async throws {
        let f = try KitFixture()
        let manager = try await UndoManager(client: try f.client(), appId: "org.example.Levels")
        manager.groupsByEvent = false
        manager.levelsOfUndo = 2
        let shelf = Shelf(manager)
        for item in ["a", "b", "c"] { shelf.add(item) }
        try await manager.undo()
        try await manager.undo()
        #expect(shelf.items == ["a"])
        #expect(!manager.canUndo)
        #expect(await kitError { () async throws(UndoKitError) in try await manager.undo() } == .nothingToUndo)
    }

    @MainActor @Test func undodRestartingUnderALiveManager() async throws {
        let f = try KitFixture()
        let manager = try await UndoManager(client: try f.client(), appId: "org.example.Survivor")
        let shelf = Shelf(manager)
        let changes = manager.changes()
        shelf.add("before")
        #expect(await next(.registered, in: changes) != nil)
        // The push reached this undod before it stops (a state read leaves
        // after it): else it might be sent again to the next one, which
        // would then hold it, and there would be nothing to follow.
        #expect(try await manager.stack.state().undoDepth == 1)
        let reattached = manager.stack.reattachments()
        try f.restart()
        var iterator = reattached.makeAsyncIterator()
        #expect(await iterator.next() != nil)
        // The memory-only stack started empty: the manager follows.
        #expect(await next(.synchronized, in: changes) != nil)
        #expect(!manager.canUndo)
        shelf.add("after")
        try await manager.undo()
        #expect(shelf.items == ["before"])
    }
}
