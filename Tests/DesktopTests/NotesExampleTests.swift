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
        let notes = try f.notesExample(data: f.desktop.scratch("notes"))
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
        #expect(f.waitForNotification("Undid Typing in Notes"))

        try f.desktop.press("ctrl+alt+shift+z", loop: f.loop)
        let redone = try notes.next(event: "applied")
        #expect(redone["direction"] as? String == "redo")
        #expect(redone["text"] as? String == "hello")
    }

    /// Notes as an editor: each file is a document (a stack of its own), a
    /// second window on the same file is told so, and Notes restarted on an
    /// unchanged file finds its history (the state tag matches).
    @Test func eachFileIsADocumentAndARestartFindsItsHistory() throws {
        let f = try DesktopFixture()
        let data = f.desktop.scratch("notes-data")
        let notes = { (file: String?) throws -> ScriptedProcess in try f.notesExample(data: data, file: file) }
        let first = try notes(nil)
        let registered = try first.next(event: "registered", timeout: 30_000)
        let stack = try #require(registered["path"] as? String)
        try f.desktop.activate(try #require(registered["xid"] as? Int), loop: f.loop)
        #expect(try f.waitForFocus(stack))
        try f.desktop.xdotool(["type", "--delay", "40", "hi"], loop: f.loop)
        for _ in 0..<2 { try first.next(event: "pushed") }
        let saved = data.appendingPathComponent("undod-notes/notes.txt")
        #expect(try String(contentsOf: saved, encoding: .utf8) == "hi", "saved as typed")
        first.stop()
        #expect(f.daemon.wait { (try? f.daemon.stackProperty(stack, "Owner")?.string) == "" })

        // Restarted on the unchanged file: the same stack, its history kept.
        let again = try notes(nil)
        defer { again.stop() }
        #expect(try again.next(event: "registered", timeout: 30_000)["path"] as? String == stack)
        #expect(try f.daemon.stackProperty(stack, "UndoName")?.string == "Typing")
        _ = try f.daemon.stack(stack, "Undo")
        #expect(try again.next(event: "applied")["text"] as? String == "")

        // A second window on the same file is told so; another file has its own stack.
        let same = try notes(nil)
        defer { same.stop() }
        let refused = try same.next(event: "error", timeout: 30_000)
        #expect(refused["name"] as? String == "org.undod.Undo1.Error.AlreadyOwned")
        let other = try notes(data.appendingPathComponent("other.txt").path)
        defer { other.stop() }
        let second = try other.next(event: "registered", timeout: 30_000)["path"] as? String
        #expect(second != nil && second != stack)
        #expect(try f.daemon.stackProperty(second ?? "/", "Title")?.string == "Notes \u{2014} other.txt")
    }
}
