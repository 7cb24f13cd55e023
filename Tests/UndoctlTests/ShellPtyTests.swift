import BusHarness
import DBus
import Foundation
import Testing

/// The shell's undo as a person types it: bash, zsh and fish, each
/// interactive on a pseudo-terminal of its own (`Tests/Clients/pty_shell.py`),
/// the integration loaded by its own line, then rm and mv, undone and redone
/// by `undoctl undo` and `redo` typed in that shell.
@Suite struct ShellPtyTests {
    @Test(arguments: ["bash", "zsh", "fish"])
    func aPersonTypingInAnIntegratedShellUndoesAndRedoesRmAndMv(_ kind: String) throws {
        let s = try ShellFixture()
        try s.write("notes.txt", "my notes")
        try s.write("draft.txt", "draft")
        let shell = try ScriptedProcess(["/usr/bin/python3", Repository.client("pty_shell.py"), kind, s.work],
                                        environment: s.environment, loop: s.f.loop)
        _ = try shell.next(event: "ready", timeout: 30_000)
        func type(_ line: String) throws -> (status: Int, output: String) {
            shell.send(["cmd": "type", "line": line])
            let done = try shell.next(event: "done", timeout: 40_000)
            return (done["status"] as? Int ?? -1, done["output"] as? String ?? "")
        }
        let load = kind == "fish" ? "undoctl shell-init fish | source" : "eval \"$(undoctl shell-init \(kind))\""
        #expect(try type(load).status == 0)
        let removed = try type("rm -v notes.txt")
        #expect(removed.status == 0 && removed.output.contains("removed 'notes.txt'"), "\(removed.output)")
        #expect(try type("mv draft.txt final.txt").status == 0)
        #expect(s.text("notes.txt") == nil && s.text("final.txt") == "draft")

        let undone = try type("undoctl undo")
        #expect(undone.status == 0, "\(undone.output)")
        #expect(undone.output.contains("Undid \"mv draft.txt final.txt\" in \(kind) in \(s.work) (pts/"), "\(undone.output)")
        #expect(s.text("draft.txt") == "draft" && s.text("final.txt") == nil)
        #expect(try type("undoctl undo").status == 0)
        #expect(s.text("notes.txt") == "my notes")
        let redone = try type("undoctl redo")
        #expect(redone.status == 0 && redone.output.contains("Redid \"rm -v notes.txt\""), "\(redone.output)")
        #expect(s.text("notes.txt") == nil)
        // `command rm` is the real one: nothing recorded, nothing to undo but the redone rm.
        try s.write("scratch", "s")
        #expect(try type("command rm scratch").status == 0)
        #expect(s.text("scratch") == nil)
        let history = try s.f.undoctl(["history", "org.undod.Shell"])
        #expect(history.output.contains("rm -v notes.txt") && !history.output.contains("scratch"), "\(history.output)")
    }
}
