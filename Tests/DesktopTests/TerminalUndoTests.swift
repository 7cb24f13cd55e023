import BusHarness
import DBus
import Foundation
import Testing

/// `undoctl undo` typed in a terminal on X11: the terminal is the window in
/// front and has no stack, so plain `undoctl undo` explains (undod's reason,
/// and the way out), and `undoctl undo --last` undoes in the application
/// changed last.
@Suite struct TerminalUndoTests {
    @Test func inATerminalUndoLastUndoesTheAppChangedLastAndPlainUndoExplains() throws {
        let f = try DesktopFixture()
        let editor = try f.app("org.example.Editor", title: "Editor", pushes: 2)
        // The terminal: a window of a process with no stack, in front.
        let terminal = try f.app()
        let xterm = try terminal.command(["cmd": "window", "name": "main", "title": "xterm"])["xid"] as? Int ?? 0
        try f.desktop.activate(xterm, loop: f.loop)
        #expect(try f.waitForFocus("/"))
        let undoctl = { (arguments: [String]) throws -> ToolResult in
            try runTool([DaemonProcess.undoctl.path, "--address", f.bus.address] + arguments, loop: f.loop)
        }
        let plain = try undoctl(["undo"])
        #expect(plain.status == 1)
        #expect(plain.errors.contains("has no undo history"), "undod's reason: \(plain.errors)")
        #expect(plain.errors.contains("`undoctl undo --last`"), "\(plain.errors)")
        let last = try undoctl(["undo", "--last"])
        #expect(last.status == 0, "\(last.errors)")
        #expect(last.output == "Undid \"Edit 2\" in Editor\n")
        #expect(try editor.process.nextApply().payloads == ["u2"])
    }
}
