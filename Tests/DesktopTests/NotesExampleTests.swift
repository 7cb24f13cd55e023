import BusHarness
import DBus
import Foundation
import Testing

/// The shake, whole, on the GTK example a new user tries it on
/// (`Examples/notes.py`): typed into with xdotool, the global key pressed,
/// its text back as it was.
@Suite struct NotesExampleTests {
    @Test func typingIsUndoneAndRedoneByTheGlobalKeys() throws {
        let f = try DesktopFixture(notifications: true)
        let notes = try ScriptedProcess(
            ["/usr/bin/python3", Repository.root.appendingPathComponent("Examples/notes.py").path,
             "--address", f.bus.address, "--trace"],
            environment: f.desktop.environment.merging(["NO_AT_BRIDGE": "1", "GSETTINGS_BACKEND": "memory"]) { $1 },
            loop: f.loop)
        defer { notes.stop() }
        let registered = try notes.next(event: "registered", timeout: 30_000)
        let window = try #require(registered["xid"] as? Int)
        let stack = try #require(registered["path"] as? String)
        try f.desktop.activate(window, loop: f.loop)
        #expect(try f.waitForFocus(stack))

        try f.desktop.xdotool(["type", "--delay", "40", "hello"], loop: f.loop)
        for _ in 0..<5 { try notes.next(event: "pushed") }
        try f.daemon.ping()
        #expect(try f.daemon.stackProperty(stack, "UndoName")?.string == "Typing")
        #expect(try f.daemon.stackProperty(stack, "UndoDepth")?.uint32 == 1, "the keystrokes merged into one group")

        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        let undone = try notes.next(event: "applied")
        #expect(undone["direction"] as? String == "undo")
        #expect(undone["text"] as? String == "")
        #expect(f.waitForLog("shown: “Undid Typing in Notes”."))

        try f.desktop.press("ctrl+alt+shift+z", loop: f.loop)
        let redone = try notes.next(event: "applied")
        #expect(redone["direction"] as? String == "redo")
        #expect(redone["text"] as? String == "hello")
    }
}
