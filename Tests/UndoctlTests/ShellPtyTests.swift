import BusHarness
import DBus
import Foundation
import Testing

/// The shell's undo as a person types it: bash, zsh and fish, each
/// interactive on a pseudo-terminal of its own (`Tests/Clients/pty_shell.py`),
/// the integration loaded by its own line, then every command the
/// functions cover, with their options, undone and redone by `undoctl undo`
/// and `redo` typed in that shell, the files compared whole (kinds, modes,
/// sizes, times, inodes, bytes) with what they were.
@Suite struct ShellPtyTests {
    @Test(arguments: ["bash", "zsh", "fish"])
    func aPersonTypingInAnIntegratedShellUndoesAndRedoesRmAndMv(_ kind: String) throws {
        let s = try ShellFixture()
        try s.write("notes.txt", "my notes")
        try s.write("draft.txt", "draft")
        let shell = try PtyShell(kind, of: s)
        let type = shell.type
        #expect(try shell.loadIntegration() == 0)
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

    @Test(arguments: ["bash", "zsh", "fish"])
    func everyCommandWithItsOptionsIsUndoneAndRedoneToTheByte(_ kind: String) throws {
        let s = try ShellFixture()
        for name in ["src/lib/a.c", "src/b.c", "saved.txt", "notes.txt", "run.sh", "old/x", "stamp"] {
            try FileManager.default.createDirectory(atPath: (s.work + "/" + name as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try s.write(name, "the text of \(name)")
        }
        try FileManager.default.createDirectory(atPath: s.work + "/empty", withIntermediateDirectories: false)
        let shell = try PtyShell(kind, of: s)
        let type = shell.type
        #expect(try shell.loadIntegration() == 0)
        let before = FileTreeSnapshot.of(s.work)
        let lines = ["cp -rp src copy", "cp -v notes.txt saved.txt", "ln -s notes.txt link", "ln run.sh hard",
                     "chmod -R go-rwx,u+x copy run.sh", "mkdir -pv made/deep", "rmdir empty", "touch stamp new",
                     "mv -t made old", "rm -rf copy link"]
        for line in lines {
            let ran = try type(line)
            #expect(ran.status == 0, "\(line): \(ran.output)")
        }
        #expect(s.text("saved.txt") == "the text of notes.txt" && s.text("made/old/x") == "the text of old/x")
        let after = FileTreeSnapshot.of(s.work)
        for line in lines.reversed() {
            let undone = try type("undoctl undo")
            #expect(undone.status == 0 && undone.output.contains("Undid \"\(line)\""), "\(undone.output)")
        }
        #expect(FileTreeSnapshot.of(s.work) == before)
        for _ in lines { #expect(try type("undoctl redo").status == 0) }
        #expect(FileTreeSnapshot.of(s.work) == after)
    }
}
