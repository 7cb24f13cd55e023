import BusHarness
import DBus
import Foundation
import Rig
import Testing

/// libundod's GTK 4 text bridge, whole, on the example editor
/// (`Examples/gtk4-editor.py`, Python on the typelibs `make libundod`
/// builds): typed into with xdotool, undone by the global key and by the
/// editor's own Ctrl+Z, one history between them.
@Suite struct Gtk4EditorExampleTests {
    @Test func theGlobalKeyAndTheEditorsCtrlZWalkOneHistory() throws {
        let f = try DesktopFixture()
        let signals = try f.daemon.recordSignals()
        let (editor, stack) = try Self.startEditor(on: f)
        defer { editor.stop() }

        // Five keystrokes, five pushes with the merge key: one "Typing" group.
        try Self.typeHello(on: f, signals: signals)
        #expect(try f.daemon.stackProperty(stack, "UndoName")?.string == "Typing")
        #expect(try f.daemon.stackProperty(stack, "UndoDepth")?.uint32 == 1, "the keystrokes merged into one group")

        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        let undone = try editor.next(event: "applied")
        #expect(undone["direction"] as? String == "undo")
        #expect(undone["text"] as? String == "")

        try f.desktop.press("ctrl+alt+shift+z", loop: f.loop)
        let redone = try editor.next(event: "applied")
        #expect(redone["direction"] as? String == "redo")
        #expect(redone["text"] as? String == "hello")

        // The editor's own Ctrl+Z undoes the same group, through undod.
        try f.desktop.press("ctrl+z", loop: f.loop)
        let local = try editor.next(event: "applied")
        #expect(local["direction"] as? String == "undo")
        #expect(local["text"] as? String == "")
        #expect(try f.daemon.stackProperty(stack, "UndoDepth")?.uint32 == 0)
        #expect(try f.daemon.stackProperty(stack, "RedoDepth")?.uint32 == 1)

        // And the global key redoes what the editor undid.
        try f.desktop.press("ctrl+alt+shift+z", loop: f.loop)
        #expect(try editor.next(event: "applied")["text"] as? String == "hello")
    }

    /// The Edit menu names the next undo and redo and greys out with the
    /// stack, whoever moved it (here the global key).
    @Test func theEditMenuFollowsTheStack() throws {
        let f = try DesktopFixture()
        let (editor, _) = try Self.startEditor(on: f)
        defer { editor.stop() }
        try f.desktop.xdotool(["type", "--delay", "40", "hi"], loop: f.loop)
        _ = try editor.next(where: { $0["event"] as? String == "menu" && $0["undo"] as? String == "Undo Typing" })
        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        let menu = try editor.next(where: {
            $0["event"] as? String == "menu" && $0["redo"] as? String == "Redo Typing" && $0["can_undo"] as? Bool == false
        })
        #expect(menu["undo"] as? String == "Undo")
        #expect(menu["can_redo"] as? Bool == true)
    }

    /// The history outlives an undod restart: the editor registers again,
    /// adopts its stored stack (the bridge's state tags match), and the key
    /// undoes what was typed before.
    @Test func theHistoryOutlivesAnUndodRestart() throws {
        let f = try DesktopFixture()
        let signals = try f.daemon.recordSignals()
        let (editor, stack) = try Self.startEditor(on: f)
        defer { editor.stop() }
        try Self.typeHello(on: f, signals: signals)
        try f.daemon.restart()
        #expect(try f.waitForFocus(stack), "the editor took its stack up again")
        #expect(try f.daemon.stackProperty(stack, "UndoName")?.string == "Typing")
        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        let undone = try editor.next(event: "applied")
        #expect(undone["direction"] as? String == "undo")
        #expect(undone["text"] as? String == "")
    }

    /// Types "hello" into the editor in front and waits for its five pushes.
    static func typeHello(on f: DesktopFixture, signals: SignalLog) throws {
        try f.desktop.xdotool(["type", "--delay", "40", "hello"], loop: f.loop)
        #expect(f.daemon.wait(timeout: 10_000) { signals.arguments(of: "Pushed").count == 5 })
    }

    /// Starts the editor on `f`'s desktop, in front, once undod focuses its stack.
    static func startEditor(on f: DesktopFixture) throws -> (ScriptedProcess, String) {
        let typelib = Repository.root.appendingPathComponent(".build/libundod/undod-gtk/UndodGtk-1.0.typelib")
        try #require(FileManager.default.fileExists(atPath: typelib.path),
                     "libundod is not built: run `make libundod` (make test does)")
        let editor = try ScriptedProcess(
            ["/usr/bin/python3", Repository.root.appendingPathComponent("Examples/gtk4-editor.py").path,
             "--address", f.bus.address, "--trace"],
            environment: f.desktop.environment.merging(["NO_AT_BRIDGE": "1", "GSETTINGS_BACKEND": "memory",
                                                        "GDK_BACKEND": "x11", "GSK_RENDERER": "cairo"]) { $1 },
            loop: f.loop)
        let registered = try editor.next(event: "registered", timeout: 30_000)
        let stack = try #require(registered["path"] as? String)
        try f.desktop.activate(try #require(registered["xid"] as? Int), loop: f.loop)
        #expect(try f.waitForFocus(stack))
        return (editor, stack)
    }

    /// A random walk of typing, the editor's own keys and the global keys
    /// (`EditorWalk`).
    @Test func aRandomWalkOfLocalAndGlobalKeysKeepsOneHistory() throws {
        let f = try DesktopFixture(config: EditorWalk.config)
        let (editor, stack) = try Self.startEditor(on: f)
        defer { editor.stop() }
        try EditorWalk.run(on: f, editor: editor, stack: stack)
    }
}
