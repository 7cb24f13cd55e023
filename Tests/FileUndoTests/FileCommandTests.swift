import FileTrash
import FileUndo
import Foundation
import Testing

/// `rm`, `mv` and `mkdir` as undod-files runs them, on real files: what
/// coreutils would print and exit with, and each command undone and
/// redone exactly (the files compared whole: kinds, modes, sizes, times,
/// inodes, bytes), or refused with nothing changed.
@Suite struct FileCommandTests {
    @Test func rmOfFilesAndATreeIsUndoneAndRedoneExactly() throws {
        let f = try FilesFixture()
        try f.file("notes.txt", "my notes", mode: 0o600)
        try f.file("build/obj/a.o", "a")
        try f.file("build/obj/b.o", "b")
        try FileManager.default.createSymbolicLink(atPath: f.work + "/link", withDestinationPath: "notes.txt")
        let before = f.snapshot()
        let outcome = f.run("rm -rv notes.txt build link")
        #expect(outcome.status == 0)
        #expect(f.terminal.said == ["removed 'notes.txt'", "removed directory 'build'", "removed 'link'"])
        #expect(f.terminal.warned.isEmpty)
        #expect(f.snapshot().isEmpty)
        #expect(outcome.change.steps.count == 3)

        try f.replay.undo(outcome.change)
        #expect(f.snapshot() == before)
        try f.replay.redo(outcome.change)
        #expect(f.snapshot().isEmpty)
        try f.replay.undo(outcome.change)
        #expect(f.snapshot() == before, "the second undo finds what the redo put in the trash")
    }

    @Test func rmRefusesAsCoreutilsDoesAndChangesNothingOfWhatItRefused() throws {
        let f = try FilesFixture()
        try f.file("dir/inner", "i")
        try f.file("keep", "k")
        try FileManager.default.createDirectory(atPath: f.work + "/empty", withIntermediateDirectories: false)
        let before = f.snapshot()
        let outcome = f.run("rm missing dir . keep/")
        #expect(outcome.status == 1)
        #expect(f.terminal.warned == [
            "rm: cannot remove 'missing': No such file or directory",
            "rm: cannot remove 'dir': Is a directory",
            "rm: refusing to remove '.' or '..' directory: skipping '.'",
            "rm: cannot remove 'keep/': Not a directory",
        ])
        #expect(outcome.change.steps.isEmpty)
        #expect(f.snapshot() == before)
        f.terminal.warned = []
        #expect(f.run("rm -d dir").status == 1)
        #expect(f.terminal.warned == ["rm: cannot remove 'dir': Directory not empty"])
        #expect(f.run("rm -f missing").status == 0)
        #expect(f.run("rm -d empty").change.steps.count == 1)
        #expect(!f.exists("empty"))
        #expect(f.run("rm").status == 1)
        #expect(f.run("rm -f").status == 0)
    }

    @Test func rmAsksWithMinusIAndRemovesOnlyWhatWasAnsweredYes() throws {
        let f = try FilesFixture()
        try f.file("a", "a")
        try f.file("b", "")
        f.terminal.answers = [true, false]
        let outcome = f.run("rm -i a b")
        #expect(f.terminal.asked == ["rm: remove regular file 'a'? ", "rm: remove regular empty file 'b'? "])
        #expect(outcome.status == 0 && outcome.change.steps.count == 1)
        #expect(!f.exists("a") && f.exists("b"))
    }

    @Test func mvRenamesReplacesToTheTrashAndIsUndoneAndRedoneExactly() throws {
        let f = try FilesFixture()
        try f.file("draft.txt", "new text")
        try f.file("final.txt", "old text")
        try f.file("other", "o")
        try FileManager.default.createDirectory(atPath: f.work + "/dir", withIntermediateDirectories: false)
        let before = f.snapshot()
        let outcome = f.run("mv -v draft.txt final.txt")
        #expect(outcome.status == 0)
        #expect(f.terminal.said == ["renamed 'draft.txt' -> 'final.txt'"])
        #expect(f.text("final.txt") == "new text" && !f.exists("draft.txt"))
        #expect(outcome.change.steps.count == 2, "the replaced file to the trash, then the rename")
        let into = f.run("mv other dir")
        #expect(f.text("dir/other") == "o")

        try f.replay.undo(into.change)
        try f.replay.undo(outcome.change)
        #expect(f.snapshot() == before, "both files back, the replaced one from the trash")
        try f.replay.redo(outcome.change)
        #expect(f.text("final.txt") == "new text" && !f.exists("draft.txt"))
        try f.replay.undo(outcome.change)
        #expect(f.snapshot() == before)
    }

    @Test func mvRefusesAsCoreutilsDoes() throws {
        let f = try FilesFixture()
        try f.file("a", "a")
        try f.file("d/x", "x")
        try f.file("e/f", "f")
        let before = f.snapshot()
        #expect(f.run("mv a").status == 1)
        #expect(f.run("mv a a").status == 1)
        #expect(f.run("mv d d/sub").status == 1)
        #expect(f.run("mv missing b").status == 1)
        #expect(f.run("mv a d e/f").status == 1)
        #expect(f.run("mv a d").change.steps.count == 1, "into the directory")
        #expect(f.run("mv -n d/a e/f").change.steps.isEmpty, "-n keeps the target")
        #expect(f.terminal.warned == [
            "mv: missing destination file operand after 'a'", "Try 'mv --help' for more information.",
            "mv: 'a' and 'a' are the same file",
            "mv: cannot move 'd' to a subdirectory of itself, 'd/sub'",
            "mv: cannot stat 'missing': No such file or directory",
            "mv: target 'e/f' is not a directory",
        ])
        #expect(f.text("e/f") == "f")
        _ = before
    }

    @Test func mkdirParentsIsUndoneWhileEmptyAndRefusedWhenNot() throws {
        let f = try FilesFixture()
        let outcome = f.run("mkdir -pv a/b/c")
        #expect(outcome.status == 0 && outcome.change.steps.count == 3)
        #expect(f.terminal.said == ["mkdir: created directory 'a'", "mkdir: created directory 'a/b'",
                                    "mkdir: created directory 'a/b/c'"])
        try f.file("a/b/note", "n")
        let full = f.snapshot()
        #expect(throws: FileUndoError.refused("\(f.work)/a/b is not empty now, so it stays")) {
            try f.replay.undo(outcome.change)
        }
        #expect(f.snapshot() == full, "all or nothing: a/b/c is back")
        try FileManager.default.removeItem(atPath: f.work + "/a/b/note")
        try f.replay.undo(outcome.change)
        #expect(f.snapshot().isEmpty)
        try f.replay.redo(outcome.change)
        #expect(f.exists("a/b/c"))
        #expect(f.run("mkdir a").status == 1)
        #expect(f.terminal.warned == ["mkdir: cannot create directory 'a': File exists"])
        #expect(f.run("mkdir -p a/b").change.steps.isEmpty)
    }

    @Test func rmdirOfEmptyFoldersIsUndoneAndRedoneAndRefusesAsCoreutilsDoes() throws {
        let f = try FilesFixture()
        try FileManager.default.createDirectory(atPath: f.work + "/a/b/c", withIntermediateDirectories: true)
        try f.file("full/x", "x")
        try f.file("plain", "p")
        let before = f.snapshot()
        let outcome = f.run("rmdir -pv a/b/c")
        #expect(outcome.status == 0 && outcome.change.steps.count == 3)
        #expect(f.terminal.said == ["rmdir: removing directory, 'a/b/c'", "rmdir: removing directory, 'a/b'",
                                    "rmdir: removing directory, 'a'"])
        try f.replay.undo(outcome.change)
        #expect(f.snapshot() == before)
        try f.replay.redo(outcome.change)
        #expect(!f.exists("a"))
        f.terminal.said = []
        #expect(f.run("rmdir full plain missing").status == 1)
        #expect(f.terminal.warned == ["rmdir: failed to remove 'full': Directory not empty",
                                      "rmdir: failed to remove 'plain': Not a directory",
                                      "rmdir: failed to remove 'missing': No such file or directory"])
        #expect(f.run("rmdir --ignore-fail-on-non-empty full").status == 0)
        #expect(f.text("full/x") == "x")
    }

    @Test func touchMakesAFileOrSetsItsTimesAndIsUndoneExactly() throws {
        let f = try FilesFixture()
        try f.file("old.txt", "old")
        let old = f.work + "/old.txt"
        let past = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: old)
        let before = f.snapshot()
        let outcome = f.run("touch old.txt new.txt")
        #expect(outcome.status == 0 && outcome.change.steps.count == 2)
        #expect(f.exists("new.txt"))
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: old)[.modificationDate] as? Date)
        #expect(modified.timeIntervalSince1970 > 1_700_000_000, "now")
        try f.replay.undo(outcome.change)
        #expect(f.snapshot() == before, "old.txt's times as they were, new.txt gone")
        try f.replay.redo(outcome.change)
        #expect(f.exists("new.txt"))
        // Written since: its times differ, so the undo refuses and changes nothing.
        try Data("more".utf8).write(to: URL(fileURLWithPath: old))
        let changed = f.snapshot()
        #expect(throws: FileUndoError.refused("\(old) was changed since it was touched (its times differ), so its times stay")) {
            try f.replay.undo(outcome.change)
        }
        #expect(f.snapshot() == changed)
        #expect(f.run("touch -c absent").change.steps.isEmpty && !f.exists("absent"))
        guard case .asItIs = FileCommand.reading("touch", ["-d", "yesterday", "x"]) else {
            Issue.record("touch -d is run as it is")
            return
        }
    }

    @Test func anUndoRefusesWhatChangedSinceAndTheEmptiedTrashIsObsolete() throws {
        let f = try FilesFixture()
        try f.file("a", "a")
        try f.file("b", "b")
        let outcome = f.run("rm a b")
        try f.file("b", "a new b")
        #expect(throws: FileUndoError.refused("\(f.work)/b exists now, so what was there cannot come back without replacing it")) {
            try f.replay.undo(outcome.change)
        }
        #expect(!f.exists("a"), "all or nothing: a went back to the trash")
        #expect(f.text("b") == "a new b")
        try FileManager.default.removeItem(atPath: f.root + "/home/.local/share/Trash/files")
        try FileManager.default.removeItem(atPath: f.work + "/b")
        #expect(throws: FileUndoError.obsolete("\(f.work)/b cannot come back: it is no longer in the trash (emptied, or taken out)")) {
            try f.replay.undo(outcome.change)
        }
    }

    @Test func stepsSurviveTheirPayloadAndUnknownOptionsRunAsTheyAre() throws {
        let f = try FilesFixture()
        try f.file("x", "x")
        try f.file("y", "y")
        var change = f.run("rm x").change
        change.steps += f.run("mv y z").change.steps
        change.steps += f.run("mkdir d").change.steps
        #expect(change.folders.count == 1 && change.steps.count == 3)
        #expect(RecordedChange(payload: change.payload) == change)
        #expect(RecordedChange(payload: Array("{\"version\":2,\"steps\":[],\"folders\":[]}".utf8)) == nil)
        #expect(RecordedChange(payload: [1, 2, 3]) == nil)
        guard case .asItIs(let why) = FileCommand.reading("rm", ["--preserve-root=all", "x"]) else {
            Issue.record("an unknown option is run as it is")
            return
        }
        #expect(why == "rm --preserve-root=all cannot be undone: running rm as it is")
        guard case .asItIs = FileCommand.reading("mkdir", ["-m", "700", "x"]) else {
            Issue.record("mkdir -m is run as it is")
            return
        }
    }
}
