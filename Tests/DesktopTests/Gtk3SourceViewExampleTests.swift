import BusHarness
import DBus
import Foundation
import Testing

/// libundod's GTK 3 text bridge on the C example (`Examples/gtk3-sourceview`,
/// GtkSourceView 4), where the bridge is the buffer's undo manager: typed
/// into with xdotool, undone by the global key and by the app's own Ctrl+Z
/// and Ctrl+Shift+Z, one history between them, and the Edit menu's items
/// follow it whoever moved it; a save marks the stack clean, and the
/// title's "*" (the buffer's modified flag) follows undo and redo to and
/// from the saved state.
@Suite struct Gtk3SourceViewExampleTests {
    @Test func theViewsOwnKeysAndTheGlobalKeyWalkOneHistory() throws {
        let f = try DesktopFixture()
        let signals = try f.daemon.recordSignals()
        let file = f.bus.directory.appendingPathComponent("saved.txt")
        let (editor, stack, xid) = try Self.startEditor(on: f, arguments: [file.path])
        defer { editor.stop() }

        try f.desktop.xdotool(["type", "--delay", "40", "hello"], loop: f.loop)
        #expect(f.daemon.wait(timeout: 10_000) { signals.arguments(of: "Pushed").count == 5 })
        #expect(try f.daemon.stackProperty(stack, "UndoDepth")?.uint32 == 1, "the keystrokes merged into one group")
        let typed = try editor.next(timeout: 10_000, "the Edit menu offering to undo the typing") {
            $0["event"] as? String == "menu" && $0["undo"] as? String == "_Undo Typing"
                && $0["undoSensitive"] as? Bool == true
        }
        #expect(typed["redoSensitive"] as? Bool == false)
        #expect(try editor.next(event: "modified")["modified"] as? Bool == true)
        #expect(try f.daemon.stackProperty(stack, "Clean")?.bool == false)

        // File → Save (Ctrl+S): the file written, the stack clean.
        try f.desktop.press("ctrl+s", loop: f.loop)
        #expect(try editor.next(event: "modified")["modified"] as? Bool == false)
        #expect(f.daemon.wait { (try? f.daemon.stackProperty(stack, "Clean")?.bool) == true })
        #expect(try String(contentsOf: file, encoding: .utf8) == "hello")

        // Another app in front: the global key undoes there, not here.
        let other = try f.app("org.example.Other", title: "Other", pushes: 2)
        try f.desktop.activate(other.window, loop: f.loop)
        #expect(try f.waitForFocus(other.stack))
        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        #expect(try other.process.nextApply().payloads == ["u2"])
        #expect(try f.daemon.stackProperty(stack, "UndoDepth")?.uint32 == 1, "the editor is untouched")
        try f.desktop.activate(xid, loop: f.loop)
        #expect(try f.waitForFocus(stack))

        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        let undone = try editor.next(event: "applied")
        #expect(undone["direction"] as? String == "undo")
        #expect(undone["text"] as? String == "")
        #expect(try editor.next(event: "modified")["modified"] as? Bool == true, "away from the saved state")
        // The global key moved the stack: the menu follows.
        let afterGlobal = try editor.next(timeout: 10_000, "the Edit menu offering to redo the typing") {
            $0["event"] as? String == "menu" && $0["redo"] as? String == "_Redo Typing"
                && $0["undoSensitive"] as? Bool == false && $0["redoSensitive"] as? Bool == true
        }
        #expect(afterGlobal["undo"] as? String == "_Undo")

        // GtkSourceView's own redo and undo keys, through undod.
        try f.desktop.press("ctrl+shift+z", loop: f.loop)
        let redone = try editor.next(event: "applied")
        #expect(redone["direction"] as? String == "redo")
        #expect(redone["text"] as? String == "hello")
        #expect(try editor.next(event: "modified")["modified"] as? Bool == false, "back at the saved state")
        try f.desktop.press("ctrl+z", loop: f.loop)
        let local = try editor.next(event: "applied")
        #expect(local["text"] as? String == "")
        #expect(try editor.next(event: "modified")["modified"] as? Bool == true)
        #expect(try f.daemon.stackProperty(stack, "RedoDepth")?.uint32 == 1)
        #expect(try f.daemon.stackProperty(stack, "UndoDepth")?.uint32 == 0)
    }

    /// A random walk of typing, the editor's own keys (through its
    /// GtkSourceBuffer's undo manager, the bridge's) and the global keys
    /// (`EditorWalk`).
    @Test func aRandomWalkOfLocalAndGlobalKeysKeepsOneHistory() throws {
        let f = try DesktopFixture(config: EditorWalk.config)
        let (editor, stack, _) = try Self.startEditor(on: f)
        defer { editor.stop() }
        try EditorWalk.run(on: f, editor: editor, stack: stack)
    }

    /// Starts the GTK 3 example on `f`'s desktop (with `arguments` after
    /// `--trace`), in front once undod focuses its stack; returns it, its
    /// stack and its window.
    static func startEditor(on f: DesktopFixture, arguments: [String] = []) throws -> (ScriptedProcess, String, Int) {
        let binary = Repository.root.appendingPathComponent(".build/libundod/examples/gtk3-sourceview")
        try #require(FileManager.default.fileExists(atPath: binary.path),
                     "the GTK 3 example is not built: run `make libundod` (make test does)")
        let editor = try ScriptedProcess(
            [binary.path, "--trace"] + arguments,
            environment: f.desktop.environment.merging(["NO_AT_BRIDGE": "1", "GSETTINGS_BACKEND": "memory",
                                                        "GDK_BACKEND": "x11",
                                                        "DBUS_SESSION_BUS_ADDRESS": f.bus.address]) { $1 },
            loop: f.loop)
        let registered = try editor.next(event: "registered", timeout: 30_000)
        let stack = try #require(registered["path"] as? String)
        let xid = try #require(registered["xid"] as? Int)
        try f.desktop.activate(xid, loop: f.loop)
        #expect(try f.waitForFocus(stack))
        return (editor, stack, xid)
    }
}
