import BusHarness
import DBus
import Foundation
import Testing

/// libundod's GTK 3 text bridge on the C example (`Examples/gtk3-sourceview`,
/// GtkSourceView 4): typed into with xdotool, undone by the global key and
/// by the view's own Ctrl+Z and Ctrl+Shift+Z, one history between them.
@Suite struct Gtk3SourceViewExampleTests {
    @Test func theViewsOwnKeysAndTheGlobalKeyWalkOneHistory() throws {
        let binary = Repository.root.appendingPathComponent(".build/libundod/examples/gtk3-sourceview")
        try #require(FileManager.default.fileExists(atPath: binary.path),
                     "the GTK 3 example is not built: run `make libundod` (make test does)")
        let f = try DesktopFixture()
        let signals = try f.daemon.recordSignals()
        let editor = try ScriptedProcess(
            [binary.path, "--trace"],
            environment: f.desktop.environment.merging(["NO_AT_BRIDGE": "1", "GSETTINGS_BACKEND": "memory",
                                                        "GDK_BACKEND": "x11",
                                                        "DBUS_SESSION_BUS_ADDRESS": f.bus.address]) { $1 },
            loop: f.loop)
        defer { editor.stop() }
        let registered = try editor.next(event: "registered", timeout: 30_000)
        let stack = try #require(registered["path"] as? String)
        try f.desktop.activate(try #require(registered["xid"] as? Int), loop: f.loop)
        #expect(try f.waitForFocus(stack))

        try f.desktop.xdotool(["type", "--delay", "40", "hello"], loop: f.loop)
        #expect(f.daemon.wait(timeout: 10_000) { signals.arguments(of: "Pushed").count == 5 })
        #expect(try f.daemon.stackProperty(stack, "UndoDepth")?.uint32 == 1, "the keystrokes merged into one group")

        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        let undone = try editor.next(event: "applied")
        #expect(undone["direction"] as? String == "undo")
        #expect(undone["text"] as? String == "")

        // GtkSourceView's own redo and undo keys, through undod.
        try f.desktop.press("ctrl+shift+z", loop: f.loop)
        let redone = try editor.next(event: "applied")
        #expect(redone["direction"] as? String == "redo")
        #expect(redone["text"] as? String == "hello")
        try f.desktop.press("ctrl+z", loop: f.loop)
        let local = try editor.next(event: "applied")
        #expect(local["text"] as? String == "")
        #expect(try f.daemon.stackProperty(stack, "RedoDepth")?.uint32 == 1)
        #expect(try f.daemon.stackProperty(stack, "UndoDepth")?.uint32 == 0)
    }
}
