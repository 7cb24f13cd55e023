import BusHarness
import DBus
import Foundation
import Testing
import UndoKit

/// UndoKit's layer 1 against the built undod on a private bus: every call,
/// every error an app handles, the order of payloads and pushes.
@Suite struct ClientTests {
    @Test func everyCallOfAStack() async throws {
        // A merge window no slow machine outlasts between two awaited pushes.
        let f = try KitFixture(config: "[merge]\nwindow_ms = 600000\n")
        let client = try f.client()
        let stack = try await client.register(appId: "org.example.Kit", options: StackOptions(title: "Kit"))
        #expect(stack.path.hasPrefix("/org/undod/Undo1/stack/"))
        let applied = Applied()
        stack.setApplyHandler { applied.add($0) }

        let first = try await stack.push("Typing", undo: bytes("u1"), redo: bytes("r1"), mergeKey: "typing")
        let merged = try await stack.push("Typing", undo: bytes("u2"), redo: bytes("r2"), mergeKey: "typing")
        #expect(first == merged, "same merge key: one group")
        var state = try await stack.state()
        #expect(state.canUndo && !state.canRedo && state.undoName == "Typing" && state.undoDepth == 1 && !state.clean)

        try await stack.setClean()
        #expect(try await stack.state().clean)
        try await stack.activate()

        let undone = try await stack.undo()
        #expect(undone.stack == stack.path && undone.group == first && undone.name == "Typing")
        #expect(applied.texts == [["u2", "u1"]])
        #expect(applied.all.first?.direction == .undo)
        state = try await stack.state()
        #expect(!state.canUndo && state.canRedo && state.redoName == "Typing" && !state.clean)

        let redone = try await stack.redo()
        #expect(redone.group == first)
        #expect(applied.texts.last == ["r1", "r2"])
        #expect(try await stack.state().clean)

        try await stack.clear()
        state = try await stack.state()
        #expect(!state.canUndo && !state.canRedo)
        try await stack.close(discard: true)
        client.close()
    }

    @Test func undoAndRedoFocused() async throws {
        let f = try KitFixture()
        let client = try f.client()
        let stack = try await client.register(appId: "org.example.Focus")
        let applied = Applied()
        stack.setApplyHandler { applied.add($0) }
        try await stack.push("Paste", undo: bytes("u"), redo: bytes("r"))
        let other = try f.client()
        let undone = try await other.undoFocused()
        #expect(undone.stack == stack.path && undone.name == "Paste")
        let redone = try await other.redoFocused()
        #expect(redone.group == undone.group)
        #expect(applied.texts == [["u"], ["r"]])
    }

    @Test func theErrorsAnAppHandles() async throws {
        let f = try KitFixture()
        let client = try f.client()
        let stack = try await client.register(appId: "org.example.Errors")
        stack.setApplyHandler { _ in }
        #expect(await kitError { () async throws(UndoKitError) in try await stack.undo() } == .nothingToUndo)
        #expect(await kitError { () async throws(UndoKitError) in try await stack.redo() } == .nothingToRedo)
        let other = try f.client()
        #expect(await kitError { () async throws(UndoKitError) in
            try await other.register(appId: "org.example.Errors")
        } == .alreadyOwned)
        let invalid = await kitError { () async throws(UndoKitError) in try await client.register(appId: "no spaces") }
        #expect(invalid?.name == "org.undod.Undo1.Error.InvalidAppId")
        #expect(invalid?.message.contains("not valid") == true)
        try await stack.close(discard: true)
        #expect(await kitError { () async throws(UndoKitError) in try await client.undoFocused() } == .noFocusedStack)
    }

    @Test func withoutUndodCallsSayDaemonUnavailable() async throws {
        let f = try KitFixture()
        f.stopDaemon()
        let client = try f.client()
        #expect(!client.isDaemonRunning)
        let error = await kitError { () async throws(UndoKitError) in try await client.register(appId: "org.example.Absent") }
        #expect(error == .daemonUnavailable)
        #expect(error?.message.isEmpty == false)
    }

    @Test func aGroupOfSeveralActionsComesBackInTheContractsOrder() async throws {
        let f = try KitFixture()
        let client = try f.client()
        let stack = try await client.register(appId: "org.example.Order")
        let applied = Applied()
        stack.setApplyHandler(on: DispatchQueue(label: "apply")) { applied.add($0) }
        let actions = (1...3).map { UndoAction(undo: bytes("u\($0)"), redo: bytes("r\($0)")) }
        try await stack.push("Delete 3 files", actions: actions)
        _ = try await stack.undo()
        _ = try await stack.redo()
        #expect(applied.texts == [["u3", "u2", "u1"], ["r1", "r2", "r3"]])
    }

    @Test func aHandlerThatThrowsLeavesTheStackAsItWas() async throws {
        struct DiskFull: Error {}
        let f = try KitFixture()
        let client = try f.client()
        let stack = try await client.register(appId: "org.example.Fails")
        stack.setApplyHandler { _ in throw DiskFull() }
        try await stack.push("Save", undo: bytes("u"), redo: bytes("r"))
        let error = await kitError { () async throws(UndoKitError) in try await stack.undo() }
        #expect(error == .clientFailed)
        #expect(error?.message.contains("The apply handler threw DiskFull()") == true)
        let state = try await stack.state()
        #expect(state.undoDepth == 1 && state.redoDepth == 0)
    }

    @Test func aHandlerThatSaysObsoleteDropsTheGroup() async throws {
        let f = try KitFixture()
        let client = try f.client()
        let stack = try await client.register(appId: "org.example.Obsolete")
        stack.setApplyHandler { request in
            if request.payloads == [bytes("gone")] { throw UndoKitError.obsolete }
        }
        try await stack.push("Kept", undo: bytes("kept"), redo: bytes("kept"))
        try await stack.push("Gone", undo: bytes("gone"), redo: bytes("gone"))
        #expect(await kitError { () async throws(UndoKitError) in try await stack.undo() } == .obsolete)
        let state = try await stack.state()
        #expect(state.undoDepth == 1 && state.undoName == "Kept" && state.redoDepth == 0)
    }

    @Test func mutatingFromInsideTheHandlerIsBusy() async throws {
        let f = try KitFixture()
        let client = try f.client()
        let stack = try await client.register(appId: "org.example.Busy")
        let inside = Applied()
        stack.setApplyHandler { request in
            if await kitError({ () async throws(UndoKitError) in
                try await stack.push("Inside", undo: bytes("x"), redo: bytes("y"))
            }) == .busy {
                inside.add(request)
            }
        }
        try await stack.push("Outer", undo: bytes("u"), redo: bytes("r"))
        _ = try await stack.undo()
        #expect(inside.all.count == 1, "a push while the undo is applied gets Busy, and nothing deadlocks")
    }

    @Test func aThousandPushesFromSeveralTasksKeepTheirOrder() async throws {
        let f = try KitFixture(config: "[limits]\nlevels = 0\n")
        let client = try f.client()
        let stack = try await client.register(appId: "org.example.Many")
        let tasks = 4, each = 250
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for index in 0..<each {
                        try await stack.push("t\(task) \(index)", undo: bytes("u"), redo: bytes("r"))
                    }
                }
            }
            try await group.waitForAll()
        }
        let names = try f.groupNames(stack.path)
        #expect(names.count == tasks * each)
        for task in 0..<tasks {
            let mine = names.filter { $0.hasPrefix("t\(task) ") }
            #expect(mine == (0..<each).map { "t\(task) \($0)" }, "task \(task)'s pushes arrived in order")
        }
    }

    @Test func aStackKeepsItsClientAlive() async throws {
        let f = try KitFixture()
        let stack = try await f.client().register(appId: "org.example.Orphan")
        stack.setApplyHandler { _ in }
        try await stack.push("Kept", undo: bytes("u"), redo: bytes("r"))
        #expect(try await stack.undo().name == "Kept")
    }

    @Test func aStackRegisteredTwiceByOneClientIsRefused() async throws {
        let f = try KitFixture()
        let client = try f.client()
        let first = try await client.register(appId: "org.example.Twice")
        #expect(await kitError { () async throws(UndoKitError) in
            try await client.register(appId: "org.example.Twice")
        } == .alreadyOwned)
        // The refused second object did not close the first's stack.
        try await first.push("Still mine", undo: bytes("u"), redo: bytes("r"))
        // Dropped, a stack detaches: another client may adopt it.
        let path = first.path
        _ = consume first
        #expect(f.waitUntilDetached(path))
        let adopted = try await f.client().register(appId: "org.example.Twice")
        #expect(adopted.path == path)
        #expect(try await adopted.state().undoName == "Still mine")
    }

    @Test func closingSendsWhatWasQueuedFirst() async throws {
        let f = try KitFixture()
        let client = try f.client()
        let stack = try await client.register(appId: "org.example.Flush", options: StackOptions(persist: false))
        for index in 0..<50 { stack.pushLater("Push \(index)", actions: [UndoAction(undo: bytes("u"), redo: bytes("r"))]) }
        client.close()
        #expect(await kitError { () async throws(UndoKitError) in try await stack.state() } == .closed)
        // undod handles the client's leaving after every message it sent:
        // once the stack is detached, all that was queued has been pushed.
        #expect(f.waitUntilDetached(stack.path))
        #expect(try f.groupNames(stack.path).count == 50, "every push queued before close reached undod")
    }

    @Test func pushesQueuedWhileUndodRestartsGoToTheNewStack() async throws {
        let f = try KitFixture()
        let client = try f.client()
        let stack = try await client.register(appId: "org.example.Requeued", options: StackOptions(persist: false))
        let reattached = stack.reattachments()
        try f.restart()
        // Right away: the stack may still be registering again.
        for index in 0..<20 { stack.pushLater("Push \(index)", actions: [UndoAction(undo: bytes("u"), redo: bytes("r"))]) }
        var iterator = reattached.makeAsyncIterator()
        #expect(await iterator.next() != nil)
        let state = try await stack.state()
        #expect(state.undoDepth == 20)
    }

    @Test func aCancelledCallIsNotSent() async throws {
        let f = try KitFixture()
        let client = try f.client()
        let stack = try await client.register(appId: "org.example.Cancel")
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await kitError { () async throws(UndoKitError) in
                try await stack.push("Never", undo: bytes("u"), redo: bytes("r"))
            }
        }
        #expect(await task.value == .cancelled)
        #expect(try await stack.state().undoDepth == 0)
    }

    @Test func payloadsAsCodableValues() async throws {
        enum Edit: Codable, Equatable {
            case insert(at: Int, text: String)
            case delete(at: Int, count: Int)
        }
        let f = try KitFixture()
        let client = try f.client()
        let stack = try await client.register(appId: "org.example.Codable")
        let applied = Applied()
        stack.setApplyHandler { applied.add($0) }
        let action = try UndoAction(encoding: Edit.delete(at: 4, count: 2), redo: Edit.insert(at: 4, text: "ab"))
        try await stack.push("Typing", actions: [action])
        _ = try await stack.undo()
        #expect(try applied.all.first?.decode(Edit.self) == [.delete(at: 4, count: 2)])
    }

    @Test func aStackRegistersAgainWhenUndodRestarts() async throws {
        let f = try KitFixture()
        let client = try f.client()
        let stack = try await client.register(appId: "org.example.Restart", options: StackOptions(persist: true))
        let applied = Applied()
        stack.setApplyHandler { applied.add($0) }
        try await stack.push("Before", undo: bytes("u"), redo: bytes("r"))
        let reattached = stack.reattachments()
        try f.restart()
        var iterator = reattached.makeAsyncIterator()
        let path = await iterator.next()
        #expect(path == stack.path)
        #expect(client.isDaemonRunning)
        // The stored history was adopted, and the app applies its undo.
        _ = try await stack.undo()
        #expect(applied.texts == [["u"]])
    }
}
