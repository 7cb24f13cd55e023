import BusHarness
import DBus
import Foundation
import Testing

/// A terminal's shells under the `x11` strategy (Xvfb, openbox, dunst): the
/// terminal owns no stack, its shells' stacks are owned by a file agent
/// that is not below it, and each names its shell with `Register`'s
/// `process`. The key undoes the shell of the terminal in front; several
/// shells with history (tabs) are a guess, and the key asks first.
@Suite struct TerminalFocusTests {
    /// A terminal with one window and `shells` child processes (its shells).
    static func terminal(_ f: DesktopFixture, shells: Int) throws -> (window: Int, shells: [Int]) {
        let terminal = try f.app(bus: false)
        let window = try terminal.command(["cmd": "window", "name": "main", "title": "Terminal"])["xid"] as? Int ?? 0
        let pids = try (0..<shells).map { _ in try terminal.command(["cmd": "spawn"])["pid"] as? Int ?? 0 }
        return (window, pids)
    }

    /// The agent's stack for the shell `pid`, with one group `name` pushed
    /// (payloads `u-NAME`, `r-NAME`).
    static func shellStack(_ agent: ScriptedProcess, pid: Int, pushing name: String) throws -> String {
        let stack = try agent.command(["cmd": "register", "app_id": "org.undod.Shell",
                                       "options": ["document": "pid \(pid)", "title": "bash \(pid)", "process": pid]])
        try agent.command(["cmd": "push", "name": name, "undo": "u-\(name)", "redo": "r-\(name)"])
        return stack["path"] as? String ?? ""
    }

    @Test func theKeyUndoesTheShellOfTheTerminalInFront() throws {
        let f = try DesktopFixture(notifications: true)
        let (window, shells) = try Self.terminal(f, shells: 1)
        let agent = try f.app()
        let stack = try Self.shellStack(agent, pid: shells[0], pushing: "rm notes.txt")
        let notes = try f.app("org.example.Notes", title: "Notes", pushes: 1)
        try f.desktop.activate(notes.window, loop: f.loop)
        #expect(try f.waitForFocus(notes.stack))
        try f.desktop.activate(window, loop: f.loop)
        #expect(try f.waitForFocus(stack), "the terminal in front: its shell's stack")
        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        #expect(try agent.nextApply() == ("undo", ["u-rm notes.txt"]))
        #expect(notes.process.applies.isEmpty)
        #expect(f.logKeyCount("confirm.asked") == 0, "one shell with history: nothing to guess, nothing asked")
        // Back to Notes: the shell's stack is no candidate for its window.
        try f.desktop.activate(notes.window, loop: f.loop)
        #expect(try f.waitForFocus(notes.stack))
    }

    @Test func twoShellsWithHistoryAreAGuessSoTheKeyAsksFirst() throws {
        let f = try DesktopFixture(notifications: true)
        let (window, shells) = try Self.terminal(f, shells: 2)
        let agent = try f.app()
        _ = try Self.shellStack(agent, pid: shells[0], pushing: "rm a")
        let second = try Self.shellStack(agent, pid: shells[1], pushing: "rm b")
        try f.desktop.activate(window, loop: f.loop)
        #expect(try f.waitForFocus(second), "the most recently active shell first")
        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        #expect(f.waitForNotification("Undo rm b in bash \(shells[1])?"))
        try f.daemon.ping()
        #expect(agent.applies.isEmpty, "nothing undone before the answer")
        try f.desktop.tool(["dunstctl", "action"], bus: f.bus, loop: f.loop)
        #expect(try agent.nextApply() == ("undo", ["u-rm b"]))
    }
}
