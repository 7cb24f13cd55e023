import BusHarness
import DBus
import Foundation
import Testing

/// The shell's undo with a real terminal in front (Xvfb, openbox): an xterm
/// running an interactive bash with the integration loaded, typed into with
/// xdotool. `rm notes.txt` there, then the global key with the xterm in
/// front brings the file back (the shell's stack names its bash with
/// `process`, a child of the xterm); with the GTK example in front the key
/// is the example's, and the shell's history is left alone.
@Suite struct XtermShellUndoTests {
    @Test func theKeyUndoesTheRmTypedInTheXtermInFrontAndAGtkAppInFrontTakesItItself() throws {
        let services = try FilesAgentService()
        let f = try DesktopFixture(services: services.directory)
        let shell = try IntegratedShell(in: f.desktop.scratch("shell"), loop: f.loop)
        let xterm = Process()
        xterm.executableURL = URL(fileURLWithPath: "/usr/bin/xterm")
        xterm.arguments = ["-title", "undod-xterm", "-e"] + shell.command
        xterm.environment = shell.environment(f.desktop.environment, bus: f.bus)
        try xterm.run()
        defer { xterm.terminate() }
        #expect(f.daemon.wait(timeout: 30_000) { shell.isReady }, "bash in the xterm is ready")
        let window = try #require(Int(try f.desktop.xdotool(["search", "--sync", "--name", "undod-xterm"], loop: f.loop)
            .split(separator: "\n").first ?? ""))
        try f.desktop.activate(window, loop: f.loop)

        try f.desktop.xdotool(["type", "--delay", "20", "rm notes.txt"], loop: f.loop)
        try f.desktop.press("Return", loop: f.loop)
        // Pushed: the shell's stack has the focus, the xterm being in front.
        #expect(f.daemon.wait(timeout: 20_000) {
            guard let stack = try? f.focusedStack(), stack != "/" else { return false }
            return (try? f.daemon.stackProperty(stack, "UndoName")?.string) == "rm notes.txt"
        }, "the shell's stack has the focus with its rm on top")
        #expect(!FileManager.default.fileExists(atPath: shell.notes.path))
        let shellStack = try f.focusedStack()

        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        #expect(f.daemon.wait(timeout: 20_000) {
            (try? f.daemon.stackProperty(shellStack, "RedoName")?.string) == "rm notes.txt"
        }, "undone by the key")
        #expect(try String(contentsOf: shell.notes, encoding: .utf8) == "my notes")

        // The GTK example in front takes the key itself.
        let example = try f.notesExample(data: f.desktop.scratch("notes"))
        defer { example.stop() }
        let registered = try example.next(event: "registered", timeout: 30_000)
        let exampleStack = try #require(registered["path"] as? String)
        try f.desktop.activate(try #require(registered["xid"] as? Int), loop: f.loop)
        #expect(try f.waitForFocus(exampleStack))
        try f.desktop.xdotool(["type", "--delay", "40", "hi"], loop: f.loop)
        for _ in 0..<2 { try example.next(event: "pushed") }
        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        #expect(try example.next(event: "applied")["text"] as? String == "")
        try f.daemon.ping()
        #expect(try f.daemon.stackProperty(shellStack, "RedoName")?.string == "rm notes.txt", "the shell's history as it was")
        #expect(try f.daemon.stackProperty(shellStack, "UndoDepth")?.uint32 == 0)
        #expect(FileManager.default.fileExists(atPath: shell.notes.path))
    }
}
