import FileTrash
import FileUndo
import Foundation
import SystemCalls
import Testing

/// `cp`, `ln`, `chmod` and `mv` across volumes as undod-files runs them,
/// on real files: what coreutils prints and exits with, each undone and
/// redone exactly (the whole tree compared: kinds, modes, sizes, times,
/// inodes, bytes), and refused, changing nothing, once the user changed
/// what the command made.
@Suite struct CopyLinkModeTests {
    @Test func cpOfAFileAndOfATreeIsUndoneAndRedoneExactly() throws {
        let f = try FilesFixture()
        try f.file("notes.txt", "new notes", mode: 0o640)
        try f.file("saved.txt", "the old day's work")
        try f.file("src/lib/a.c", "int a;")
        try f.file("src/b.c", "int b;", mode: 0o600)
        try FileManager.default.createSymbolicLink(atPath: f.work + "/src/link", withDestinationPath: "b.c")
        let before = f.snapshot()
        let outcome = f.run("cp -v notes.txt saved.txt")
        #expect(outcome.status == 0 && f.terminal.said == ["'notes.txt' -> 'saved.txt'"])
        #expect(f.text("saved.txt") == "new notes")
        f.terminal.said = []
        let tree = f.run("cp -rv src copy")
        #expect(tree.status == 0)
        #expect(f.terminal.said == ["'src' -> 'copy'", "'src/b.c' -> 'copy/b.c'", "'src/lib' -> 'copy/lib'",
                                    "'src/lib/a.c' -> 'copy/lib/a.c'", "'src/link' -> 'copy/link'"])
        #expect(f.text("copy/lib/a.c") == "int a;" && f.mode("copy/b.c") == 0o600)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: f.work + "/copy/link") == "b.c")
        #expect(f.terminal.warned.isEmpty)
        #expect(outcome.change.steps.count == 2, "the replaced file trashed, the copy made")
        #expect(tree.change.steps.count == 1, "a tree is one step")
        let after = f.snapshot()

        try f.replay.undo(tree.change)
        try f.replay.undo(outcome.change)
        #expect(f.snapshot() == before, "the overwritten file is back")
        try f.replay.redo(outcome.change)
        try f.replay.redo(tree.change)
        #expect(f.snapshot() == after)
        try f.replay.undo(tree.change)
        try f.replay.undo(outcome.change)
        #expect(f.snapshot() == before)
    }

    @Test func cpKeepsModeAndTimesWithMinusPAndMergesIntoAFolderThatExists() throws {
        let f = try FilesFixture()
        try f.file("a", "a", mode: 0o751)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000)],
                                              ofItemAtPath: f.work + "/a")
        #expect(f.run("cp -p a kept").status == 0)
        #expect(f.mode("kept") == 0o751 && f.modified("kept") == f.modified("a"))
        #expect(f.run("cp a plain").status == 0)
        #expect(f.mode("plain") == 0o751 & ~UInt32(SystemCall.creationMask()) && f.modified("plain") != f.modified("a"))

        try f.file("d/e/old", "the copy's")
        try f.file("d/new", "new")
        try f.file("x/d/e/old", "mine")
        try f.file("x/d/mine", "kept")
        let before = f.snapshot()
        let merge = f.run("cp -r d x")
        #expect(merge.status == 0)
        #expect(f.text("x/d/e/old") == "the copy's" && f.text("x/d/new") == "new" && f.text("x/d/mine") == "kept")
        try f.replay.undo(merge.change)
        #expect(f.snapshot() == before)
    }

    @Test func cpRefusesAsCoreutilsDoesAndChangesNothing() throws {
        let f = try FilesFixture()
        try f.file("a", "a")
        try f.file("d/x", "x")
        try f.file("e/d", "a file where the folder would go")
        let before = f.snapshot()
        #expect(f.run("cp a").status == 1)
        #expect(f.run("cp d c").status == 1)
        #expect(f.run("cp a a").status == 1)
        #expect(f.run("cp -r d d/sub").status == 1)
        #expect(f.run("cp missing b").status == 1)
        #expect(f.run("cp a d/x e/d").status == 1)
        #expect(f.run("cp a d").status == 0 && f.text("d/a") == "a", "into the folder")
        #expect(f.run("cp -r d e").status == 1)
        #expect(f.run("cp -n a d/x").change.steps.isEmpty, "-n keeps the target")
        #expect(f.terminal.warned == [
            "cp: missing destination file operand after 'a'", "Try 'cp --help' for more information.",
            "cp: -r not specified; omitting directory 'd'",
            "cp: 'a' and 'a' are the same file",
            "cp: cannot copy a directory, 'd', into itself, 'd/sub'",
            "cp: cannot stat 'missing': No such file or directory",
            "cp: target 'e/d' is not a directory",
            "cp: cannot overwrite non-directory 'e/d' with directory 'd'",
        ])
        #expect(f.text("d/x") == "x")
        _ = try FileManager.default.removeItem(atPath: f.work + "/d/a")
        #expect(f.snapshot().keys == before.keys)
    }

    @Test func cpAsksWithMinusIAndMakesLinksWithMinusS() throws {
        let f = try FilesFixture()
        try f.file("a", "a")
        try f.file("b", "b")
        try f.file("c", "c")
        f.terminal.answers = [false]
        #expect(f.run("cp -i a b").change.steps.isEmpty && f.text("b") == "b")
        #expect(f.terminal.asked == ["cp: overwrite 'b'? "])
        f.terminal.answers = [true]
        #expect(f.run("cp -i a b").change.steps.count == 2 && f.text("b") == "a")
        let link = f.run("cp -s a l")
        #expect(link.status == 0 && (try? FileManager.default.destinationOfSymbolicLink(atPath: f.work + "/l")) == "a")
        #expect(f.run("cp -s a sub/l").status == 1)
        #expect(f.terminal.warned.last == "cp: sub/l: can make relative symbolic links only in current directory")
        try f.replay.undo(link.change)
        #expect(!f.exists("l"))
    }

    @Test func anUndoOfACopyRefusesOnceTheCopyWasChanged() throws {
        let f = try FilesFixture()
        try f.file("a", "a")
        try f.file("d/x", "x")
        let file = f.run("cp a b")
        let tree = f.run("cp -r d t")
        try f.file("b", "my work in the copy")
        try f.file("t/added", "new")
        #expect(throws: FileUndoError.refused("\(f.work)/b was changed since it was made (its size or time differs), so it stays")) {
            try f.replay.undo(file.change)
        }
        #expect(throws: FileUndoError.refused(
            "\(f.work)/t was changed since it was made (something in it was added, removed or written to), so it stays")) {
            try f.replay.undo(tree.change)
        }
        #expect(f.text("b") == "my work in the copy" && f.text("t/added") == "new" && f.text("t/x") == "x")
    }

    @Test func aCopyThatRunsOutOfRoomLeavesNothingBehind() throws {
        let f = try FilesFixture()
        try f.file("a", String(repeating: "a", count: 100_000))
        try f.file("b", "the old b")
        let before = f.snapshot()
        let armed = SystemCallFaults.arm(.init(.copy, under: f.work, errno: Errno(ENOSPC)))
        defer { SystemCallFaults.disarm(armed) }
        let outcome = f.run("cp a b")
        #expect(outcome.status == 1 && outcome.change.steps.isEmpty)
        #expect(f.terminal.warned == ["cp: error writing 'b': No space left on device"])
        #expect(f.snapshot() == before, "the old b is back, no half copy is left")
    }

    @Test func lnMakesLinksReplacesWithMinusFAndIsUndoneExactly() throws {
        let f = try FilesFixture()
        try f.file("a", "a")
        try f.file("b", "b")
        try f.file("d/x", "x")
        let before = f.snapshot()
        let symbolic = f.run("ln -sv a s")
        #expect(f.terminal.said == ["'s' -> 'a'"])
        let hard = f.run("ln a h")
        let forced = f.run("ln -sf a b")
        let lone = f.run("ln -s /etc/hostname -t d")
        #expect([symbolic, hard, forced, lone].allSatisfy { $0.status == 0 })
        #expect(f.inode("h") == f.inode("a"))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: f.work + "/b")) == "a")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: f.work + "/d/hostname")) == "/etc/hostname")
        try f.file("a", "a changed: its other name goes all the same")
        let changed = f.snapshot()
        for outcome in [lone, forced, hard, symbolic] { try f.replay.undo(outcome.change) }
        #expect(f.snapshot().filter { $0.key != "a" } == before.filter { $0.key != "a" })
        for outcome in [symbolic, hard, forced, lone] { try f.replay.redo(outcome.change) }
        #expect(f.snapshot() == changed)

        #expect(f.run("ln a s").status == 1)
        #expect(f.run("ln d hd").status == 1)
        #expect(f.run("ln missing m").status == 1)
        #expect(f.run("ln -f a h").status == 1)
        #expect(f.terminal.warned == [
            "ln: failed to create hard link 's': File exists",
            "ln: 'd': hard link not allowed for directory",
            "ln: failed to access 'missing': No such file or directory",
            "ln: 'a' and 'h' are the same file",
        ])
        #expect(f.snapshot() == changed)
    }

    @Test func chmodSetsModesAsCoreutilsAndIsUndoneUnlessChangedSince() throws {
        let f = try FilesFixture()
        try f.file("run.sh", "echo", mode: 0o644)
        try f.file("d/e/x", "x", mode: 0o640)
        let before = f.snapshot()
        let one = f.run("chmod -v u+x,g=r run.sh")
        #expect(f.terminal.said == ["mode of 'run.sh' changed from 0644 (rw-r--r--) to 0744 (rwxr--r--)"])
        f.terminal.said = []
        let tree = f.run("chmod -Rc go-rwx d")
        #expect(f.terminal.said == ["mode of 'd' changed from 0755 (rwxr-xr-x) to 0700 (rwx------)",
                                    "mode of 'd/e' changed from 0755 (rwxr-xr-x) to 0700 (rwx------)",
                                    "mode of 'd/e/x' changed from 0640 (rw-r-----) to 0600 (rw-------)"])
        #expect(tree.change.steps.count == 3 && f.mode("d/e/x") == 0o600)
        let after = f.snapshot()
        try f.replay.undo(tree.change)
        try f.replay.undo(one.change)
        #expect(f.snapshot() == before)
        try f.replay.redo(one.change)
        try f.replay.redo(tree.change)
        #expect(f.snapshot() == after)

        _ = chmod(f.work + "/run.sh", 0o700)
        #expect(throws: FileUndoError.refused(
            "\(f.work)/run.sh has mode 0700 now, not the 0744 it was left with, so its mode stays")) {
            try f.replay.undo(one.change)
        }
        #expect(f.mode("run.sh") == 0o700)
        #expect(f.run("chmod 755").status == 1 && f.run("chmod nine run.sh").status == 1)
        #expect(f.run("chmod 600 missing").status == 1)
        #expect(f.terminal.warned == [
            "chmod: missing operand after '755'", "Try 'chmod --help' for more information.",
            "chmod: invalid mode: 'nine'", "Try 'chmod --help' for more information.",
            "chmod: cannot access 'missing': No such file or directory",
        ])
        guard case .asItIs = FileCommand.reading("chmod", ["-w", "run.sh"]) else {
            Issue.record("a mode written as an option goes to the real chmod")
            return
        }
    }

    @Test("chmod's modes read as coreutils reads them", arguments: [
        "755", "0", "4755", "2775", "u+x", "go-w", "a=rX", "+t", "g=u", "o=", "u+s,g+s", "=r", "a+rwx,o-x",
        "u=rwx,g=rx,o=", "ug+w", "o+t", "g-s", "+X", "u-s", "=", "a-x,+X",
    ])
    func modesMatchTheRealChmod(_ text: String) throws {
        let f = try FilesFixture()
        for (start, folder) in [(0o644, false), (0o755, false), (0o2750, true), (0o700, true), (0o4711, false)] {
            for name in ["real", "ours"] {
                if folder {
                    try FileManager.default.createDirectory(atPath: f.work + "/" + name, withIntermediateDirectories: true)
                } else {
                    try f.file(name, "x")
                }
                _ = chmod(f.work + "/" + name, mode_t(start))
            }
            let real = Process()
            real.executableURL = URL(fileURLWithPath: "/bin/chmod")
            real.arguments = [text, f.work + "/real"]
            try real.run()
            real.waitUntilExit()
            let ours = f.run("chmod \(text) ours")
            #expect(ours.status == real.terminationStatus)
            #expect(String(f.mode("ours"), radix: 8) == String(f.mode("real"), radix: 8),
                    "\(text) on \(String(start, radix: 8)) \(folder ? "folder" : "file")")
            for name in ["real", "ours"] { try FileManager.default.removeItem(atPath: f.work + "/" + name) }
        }
    }

    @Test(.enabled(if: FilesFixture.otherVolume != nil, "no /dev/shm on another volume"))
    func mvAcrossVolumesCopiesKeepingEverythingAndIsUndoneExactly() throws {
        let f = try FilesFixture()
        try f.file("tree/a", "a", mode: 0o640)
        try f.file("tree/sub/b", "b")
        try FileManager.default.createSymbolicLink(atPath: f.work + "/tree/l", withDestinationPath: "a")
        let name = "undod-files-" + UUID().uuidString
        let target = FilesFixture.otherVolume! + "/" + name
        defer {
            try? FileManager.default.removeItem(atPath: target)
            let trash = FilesFixture.otherVolume! + "/.Trash-\(getuid())"
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: trash + "/files")) ?? [] where entry.hasPrefix(name) {
                try? FileManager.default.removeItem(atPath: trash + "/files/" + entry)
                try? FileManager.default.removeItem(atPath: trash + "/info/" + entry + ".trashinfo")
            }
        }
        let before = f.snapshot()
        let tree = f.snapshot(of: f.work + "/tree", inodes: false)
        let outcome = f.run("mv -v tree \(target)")
        #expect(outcome.status == 0 && !f.exists("tree"))
        #expect(f.snapshot(of: target, inodes: false) == tree)
        try f.replay.undo(outcome.change)
        #expect(f.snapshot() == before, "back on its volume as it was, the copy in that volume's trash")
        #expect(!FileManager.default.fileExists(atPath: target))
        try f.replay.redo(outcome.change)
        #expect(!f.exists("tree") && f.snapshot(of: target, inodes: false) == tree)
        try f.replay.undo(outcome.change)
        #expect(f.snapshot() == before)
    }

    @Test func newStepsSurviveTheirPayload() throws {
        let f = try FilesFixture()
        try f.file("a", "a")
        try f.file("d/x", "x")
        var change = f.run("cp -r d t").change
        change.steps += f.run("ln a h").change.steps
        change.steps += f.run("chmod 600 a").change.steps
        change.steps += f.run("mkdir m").change.steps
        change.steps += f.run("cp a b").change.steps
        #expect(change.steps.count == 5)
        #expect(RecordedChange(payload: change.payload) == change)
    }
}
