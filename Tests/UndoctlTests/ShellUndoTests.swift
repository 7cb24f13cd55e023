import BusHarness
import DBus
import Foundation
import Testing

/// The shell's undo end to end: bash with `undoctl shell-init bash` loaded,
/// its rm, mv and mkdir run by undod-files, the agent started by the bus
/// (D-Bus activation, as installed), each command line one group on the
/// shell's own stack, and `undoctl undo` typed in that shell taking it back.
@Suite struct ShellUndoTests {
    @Test func rmMvAndMkdirInBashAreUndoneAndRedoneByUndoctlInThatShell() throws {
        let s = try ShellFixture()
        try Data("my notes".utf8).write(to: URL(fileURLWithPath: s.work + "/notes.txt"))
        try Data("draft".utf8).write(to: URL(fileURLWithPath: s.work + "/draft.txt"))
        let result = try s.bash("""
            type rm | head -1; rm -v notes.txt && mv draft.txt final.txt && mkdir -p a/b \
            && undoctl undo && ls && undoctl undo && ls && undoctl undo -n 1 && cat notes.txt && echo && undoctl redo
            """)
        #expect(result.status == 0, "\(result.errors)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines == [
            "rm is a function",
            "removed 'notes.txt'",
            "Undid \"mkdir -p a/b\" in bash in \(s.work)",
            "final.txt",
            "Undid \"mv draft.txt final.txt\" in bash in \(s.work)",
            "draft.txt",
            "Undid \"rm -v notes.txt\" in bash in \(s.work)",
            "my notes",
            "Redid \"rm -v notes.txt\" in bash in \(s.work)",
        ], "\(result.output)\n\(result.errors)")
        #expect(s.text("notes.txt") == nil && s.text("draft.txt") == "draft")
        // The trash holds the removed file, as GNOME Files would see it, and
        // the folders the undone mkdir made: an undo never unlinks.
        let trashed = try FileManager.default.contentsOfDirectory(atPath: s.home + "/.local/share/Trash/files")
        #expect(trashed.sorted() == ["a", "b", "notes.txt"])
    }

    @Test func anUndoThatWouldReplaceAFileIsRefusedWithItsPathAndChangesNothing() throws {
        let s = try ShellFixture()
        try Data("old".utf8).write(to: URL(fileURLWithPath: s.work + "/a.txt"))
        let result = try s.bash("rm a.txt && echo new > a.txt && undoctl undo; echo \"status $?\"; cat a.txt")
        #expect(result.output.hasSuffix("status 1\nnew\n"), "\(result.output)")
        #expect(result.errors.contains("\(s.work)/a.txt exists now"), "\(result.errors)")
        #expect(result.errors.contains("the history is unchanged"), "\(result.errors)")
    }

    @Test func twoShellsKeepStacksOfTheirOwnAndEachUndoesOnlyItsOwn() throws {
        let s = try ShellFixture()
        try s.write("a.txt", "a")
        try s.write("b.txt", "b")
        let undoctl = DaemonProcess.undoctl.path
        // The second shell is another bash, started by the first: another session.
        let result = try s.bash("""
            rm a.txt && bash --norc --noprofile -c 'eval "$(\(undoctl) shell-init bash)" && rm b.txt && undoctl undo' \
            && ls && undoctl undo && ls
            """)
        #expect(result.status == 0, "\(result.errors)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(result.output)")
        #expect(lines.first?.hasPrefix("Undid \"rm b.txt\"") == true, "\(result.output)")
        #expect(lines.dropFirst().first == "b.txt", "the second shell undid its own rm only")
        #expect(lines.dropFirst(2).first?.hasPrefix("Undid \"rm a.txt\"") == true, "\(result.output)")
        #expect(Array(lines.suffix(2)) == ["a.txt", "b.txt"])
        let list = try s.f.undoctl(["list"]).output
        #expect(list.components(separatedBy: "org.undod.Shell:").count - 1 == 2, "two stacks: \(list)")
    }

    @Test func aFileTheFileManagerRestoredMakesTheUndoObsoleteAndStaysWhereItIs() throws {
        let s = try ShellFixture()
        try s.write("a.txt", "a")
        let result = try s.bash("""
            rm a.txt && HOME='\(s.home)' dbus-run-session -- gio trash --restore trash:///a.txt && echo new >> a.txt \
            && undoctl undo; echo "status $?"; cat a.txt
            """)
        #expect(result.output == "status 1\nanew\n", "what gio restored stays, with what was added to it: \(result.output)\n\(result.errors)")
        #expect(result.errors.contains("can no longer be applied"), "\(result.errors)")
        let history = try s.f.undoctl(["history", "org.undod.Shell"])
        #expect(!history.output.contains("rm a.txt"), "the obsolete group was dropped: \(history.output)")
    }

    @Test func aRemovedTreeIsMeasuredForTheTrashAfterTheCommandNotDuringIt() throws {
        let s = try ShellFixture()
        try FileManager.default.createDirectory(atPath: s.work + "/build/obj", withIntermediateDirectories: true)
        try s.write("build/obj/a.o", String(repeating: "a", count: 10_000))
        // The agent writes the size after it answered: watched for with
        // inotify on the trash (the file is replaced by a rename).
        let trash = s.home + "/.local/share/Trash"
        try FileManager.default.createDirectory(atPath: trash, withIntermediateDirectories: true)
        let sizes = trash + "/directorysizes"
        let watch = try FileWatch(trash, loop: s.f.loop)
        #expect(try s.bash("rm -r build").status == 0)
        #expect(s.f.wait(timeout: 10_000) { watch.changed && FileManager.default.fileExists(atPath: sizes) },
                "directorysizes written")
        let fields = (try String(contentsOfFile: sizes, encoding: .utf8)).split(separator: " ")
        #expect(fields.count == 3 && fields[2] == "build\n", "\(fields)")
        #expect((fields.first.flatMap { UInt64($0) } ?? 0) >= 10_000, "du's bytes: \(fields)")
    }

    @Test func anUndoAfterTheAgentWasKilledStartsItAgainAndGoesAhead() throws {
        let s = try ShellFixture()
        try s.write("a.txt", "a")
        let shell = try PtyShell("bash", of: s)
        #expect(try shell.loadIntegration() == 0)
        #expect(try shell.type("rm a.txt").status == 0)
        try ShellFaultTests.killAgent(s)
        let stacks = try s.f.undoctl(["list", "--json"]).output
        #expect(stacks.contains("\"owner\":null"), "the shell's stack has no owner now: \(stacks)")
        let undone = try shell.type("undoctl undo")
        #expect(undone.status == 0, "the bus started the agent again, which took the stack back: \(undone.output)")
        #expect(s.text("a.txt") == "a")
    }

    @Test func anOptionUndodFilesDoesNotKnowRunsTheRealCommandAndSaysSo() throws {
        let s = try ShellFixture()
        try Data("x".utf8).write(to: URL(fileURLWithPath: s.work + "/x"))
        let result = try s.bash("rm --preserve-root=all x; echo \"status $?\"; command rm -f nothing; echo done")
        #expect(result.output == "status 0\ndone\n", "\(result.output)")
        #expect(result.errors == "undod-files-run: rm --preserve-root=all cannot be undone: running rm as it is\n")
        #expect(s.text("x") == nil)
        #expect(try s.f.undoctl(["list"]).output.contains("org.undod.Shell") == false, "nothing recorded")
    }

    @Test func shellInitPrintsFunctionsForEachShellAndRefusesOthers() throws {
        let f = try DaemonFixture(daemon: false)
        for shell in ["bash", "zsh", "fish"] {
            let script = try f.undoctlBare(["shell-init", shell])
            #expect(script.status == 0)
            for command in ["rm", "mv", "cp", "mkdir", "rmdir", "ln", "touch", "chmod"] { #expect(script.output.contains("function \(command)")) }
        }
        let other = try f.undoctlBare(["shell-init", "csh"])
        #expect(other.status == 2)
        #expect(other.errors.contains("choose bash, zsh or fish"))
        // zsh and fish load them, and the functions are there.
        let undoctl = DaemonProcess.undoctl.path
        let zsh = try runTool(["zsh", "-f", "-c", "eval \"$('\(undoctl)' shell-init zsh)\"; whence -w rm mv cp mkdir rmdir ln touch chmod"])
        #expect(zsh.output == "rm: function\nmv: function\ncp: function\nmkdir: function\nrmdir: function\nln: function\ntouch: function\nchmod: function\n", "\(zsh.errors)")
        let fish = try runTool(["fish", "--no-config", "-c", "'\(undoctl)' shell-init fish | source; functions -q rm mv cp mkdir rmdir ln touch chmod; echo $status"])
        #expect(fish.output == "0\n", "\(fish.errors)")
    }
}
