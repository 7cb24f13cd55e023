import Dispatch
import UndoKit

/// The public surface of `Docs/UNDOKIT.md`, written out as outside code
/// uses it (this target imports UndoKit without `@testable`): a declaration
/// renamed, relabelled, or given other isolation or throws breaks the build.
enum Surface {
    /// Every layer-1 declaration, with its exact labels and types. Compiled, never run.
    static func layerOne(_ client: UndoClient, _ stack: UndoStackClient) async throws(UndoKitError) {
        let _: UndoClient = try UndoClient(address: nil)
        let _: UndoClient = try UndoClient()
        let _: UndoStackClient = try await client.register(appId: "org.example.App", options: StackOptions())
        let _: UndoStackClient = try await client.register(appId: "org.example.App")
        let _: AppliedGroup = try await client.undoFocused()
        let _: AppliedGroup = try await client.redoFocused()
        client.close()

        let _: StackOptions = StackOptions(document: "", title: nil, limit: nil, maxBytes: nil, persist: nil,
                                           globalTrigger: true, stateTag: nil)
        let path: String = stack.path
        _ = path
        stack.setApplyHandler { (request: ApplyRequest) async throws in
            let _: UndoDirection = request.direction
            let _: UInt64 = request.group
            let _: [[UInt8]] = request.payloads
        }
        let _: UInt64 = try await stack.push("Typing", undo: [1], redo: [2], mergeKey: nil)
        try await stack.push("Typing", undo: [1], redo: [2])
        let _: UInt64 = try await stack.push("Paste", actions: [UndoAction(undo: [1], redo: [2])], mergeKey: "k")
        let _: AppliedGroup = try await stack.undo()
        let _: AppliedGroup = try await stack.redo()
        try await stack.setClean()
        try await stack.activate()
        try await stack.clear()
        try await stack.close(discard: false)
        let state: StackState = try await stack.state()
        let _: (Bool, Bool, String, String, UInt32, UInt32, Bool) = (state.canUndo, state.canRedo, state.undoName,
                                                                    state.redoName, state.undoDepth, state.redoDepth,
                                                                    state.clean)
        let applied = try await stack.undo()
        let _: (String, UInt64, String) = (applied.stack, applied.group, applied.name)
        let _: [UndoDirection] = [.undo, .redo]
        let _: String = UndoDirection.undo.rawValue
        let error = UndoKitError(name: "org.example.Error", message: "A sentence.")
        let _: (String, String) = (error.name, error.message)
        let _: UndoKitError = .obsolete
        let _: any Error & Sendable = error
        let _: any Sendable = client
    }

    /// Every layer-2 declaration. Compiled, never run.
    @MainActor
    static func layerTwo(_ client: UndoClient) async throws(UndoKitError) {
        final class Document {}
        let manager = try await UndoManager(client: client, appId: "org.example.App", options: StackOptions())
        let document = Document()
        manager.registerUndo(withTarget: document) { (_: Document) in }
        manager.setActionName("Typing")
        manager.beginUndoGrouping()
        manager.endUndoGrouping()
        manager.groupsByEvent = true
        manager.levelsOfUndo = 0
        let _: (Bool, Bool, String, String, String, String, Bool, Bool) = (
            manager.canUndo, manager.canRedo, manager.undoActionName, manager.redoActionName,
            manager.undoMenuItemTitle, manager.redoMenuItemTitle, manager.isUndoing, manager.isRedoing)
        try await manager.undo()
        try await manager.redo()
        try await manager.removeAllActions()
        let _: AsyncStream<UndoManager.Change> = manager.changes()
    }
}
