import BusHarness
import FileTrash
import Foundation
import Testing

/// The FreeDesktop trash as undod's shell undo uses it, checked against
/// the files the specification lays down and against GLib's own reading of
/// them (`gio trash --list`, `--restore`, `--empty` through gvfs), as GNOME
/// Files would see them.
@Suite struct TrashTests {
    @Test func aFileGoesToTheHomeTrashAndGioListsItWhereItWas() throws {
        let f = try TrashFixture()
        let path = try f.file("notes 100% ü+x.txt", "my notes")
        let before = Int(time(nil))
        let entry = try f.trash.trash(path)
        #expect(!f.exists(path))
        #expect(entry.directory == f.dataHome + "/Trash")
        #expect(entry.name == "notes 100% ü+x.txt")
        #expect(f.text(entry.trashedPath) == "my notes")
        let info = try #require(f.text(entry.infoPath))
        let lines = info.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines.first == "[Trash Info]")
        #expect(lines.dropFirst().first == "Path=\(f.home)/notes%20100%25%20%C3%BC%2Bx.txt")
        #expect(lines.last == "X-Undod-Token=\(entry.token)")
        #expect(entry.token.wholeMatch(of: /[0-9a-f]{32}/) != nil)
        #expect(lines.dropFirst().first == "Path=" + f.home.replacingOccurrences(of: "-", with: "-")
                + "/notes%20100%25%20%C3%BC%2Bx.txt")
        let date = String(lines.dropFirst(2).first?.dropFirst("DeletionDate=".count) ?? "")
        #expect(date.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/) != nil, "\(date)")
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        formatter.timeZone = .current
        let seconds = Int(try #require(formatter.date(from: date)).timeIntervalSince1970)
        #expect(seconds >= before - 1 && seconds <= Int(time(nil)) + 1, "local time, now")
        #expect(try f.gioList().values.sorted() == [TrashFixture.asGioPrints(path)], "GLib reads the path back")
        #expect(f.trash.contains(entry))

        try f.trash.restore(entry)
        #expect(f.text(path) == "my notes")
        #expect(!f.exists(entry.infoPath) && !f.exists(entry.trashedPath))
        #expect(!f.trash.contains(entry))
        #expect(try f.gioList().isEmpty)
    }

    @Test func itemsOfOneNameAreNumberedAndEachComesBackToItsPlace() throws {
        let f = try TrashFixture()
        let first = try f.trash.trash(try f.file("a.txt", "one"))
        let second = try f.trash.trash(try f.file("a.txt", "two"))
        let third = try f.trash.trash(try f.file("sub/a.txt", "three"))
        let dotted = try f.trash.trash(try f.file(".a", "four"))
        let dottedAgain = try f.trash.trash(try f.file("sub/.a", "five"))
        #expect([first.name, second.name, third.name, dotted.name, dottedAgain.name]
                == ["a.txt", "a.2.txt", "a.3.txt", ".a", ".a.2"])
        #expect(try f.gioList().count == 5)

        // Back in another order than they came; the second finds its place taken by the first.
        try f.trash.restore(third)
        #expect(f.text(f.home + "/sub/a.txt") == "three")
        try f.trash.restore(first)
        #expect(throws: TrashError.destinationTaken(path: f.home + "/a.txt")) { try f.trash.restore(second) }
        #expect(f.text(f.home + "/a.txt") == "one", "nothing replaced")
        #expect(f.trash.contains(second), "still in the trash")
        try f.trash.restore(second, to: f.home + "/a (2).txt")
        #expect(f.text(f.home + "/a (2).txt") == "two")
    }

    @Test func aDirectoryIsMeasuredAsDuCountsItAndForgottenWhenItComesBack() throws {
        let f = try TrashFixture()
        for index in 0..<20 { try f.file("build/obj/\(index).o", String(repeating: "x", count: 1000 * index)) }
        try f.file("build/README", "r")
        try FileManager.default.createSymbolicLink(atPath: f.home + "/build/link", withDestinationPath: "/etc/passwd")
        let entry = try f.trash.trash(f.home + "/build")
        #expect(entry.isDirectory)
        let du = try runTool(["du", "-B1", "-s", entry.trashedPath]).output.split(separator: "\t").first.map(String.init)
        let sizes = f.dataHome + "/Trash/directorysizes"
        let line = try #require(f.text(sizes)).split(separator: "\n").map(String.init)
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: entry.infoPath)[.modificationDate] as? Date)
        #expect(line == ["\(du ?? "?") \(Int(modified.timeIntervalSince1970)) build"])
        #expect(try f.gioList().values.sorted() == [f.home + "/build"])

        try f.trash.restore(entry)
        #expect(f.text(f.home + "/build/obj/19.o")?.count == 19_000)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: f.home + "/build/link")) == "/etc/passwd")
        #expect(f.text(sizes) == "", "its line is gone")
    }

    @Test func aTreeTrashedUnmeasuredIsMeasuredLaterUnlessItCameBackMeanwhile() throws {
        let f = try TrashFixture()
        try f.file("build/a.o", String(repeating: "x", count: 8192))
        try f.file("other/b.o", "b")
        let sizes = f.dataHome + "/Trash/directorysizes"
        let build = try f.trash.trash(f.home + "/build", measuring: false)
        let other = try f.trash.trash(f.home + "/other", measuring: false)
        #expect(f.text(sizes) == nil, "nothing walked while the command ran")
        f.trash.measure(build)
        let du = try runTool(["du", "-B1", "-s", build.trashedPath]).output.split(separator: "\t").first.map(String.init)
        #expect(f.text(sizes)?.hasPrefix("\(du ?? "?") ") == true && f.text(sizes)?.hasSuffix(" build\n") == true)
        try f.trash.restore(other)
        f.trash.measure(other)
        #expect(f.text(sizes)?.contains("other") == false, "what came back is not measured")
    }

    @Test func anItemGioRestoredOrEmptiedIsGoneAndRestoringItChangesNothing() throws {
        let f = try TrashFixture()
        let kept = try f.trash.trash(try f.file("kept.txt", "k"))
        let path = try f.file("restored.txt", "r")
        let restored = try f.trash.trash(path)
        let restoredBy = try f.gio("trash", "--restore", "trash:///restored.txt")
        #expect(restoredBy.status == 0, "\(restoredBy.errors)")
        #expect(f.text(path) == "r")
        #expect(!f.trash.contains(restored))
        #expect(throws: TrashError.entryGone(name: "restored.txt", originalPath: path)) { try f.trash.restore(restored) }
        #expect(f.text(path) == "r")

        // The same name in the trash again, but another file: not ours.
        try FileManager.default.removeItem(atPath: path)
        let other = try f.trash.trash(try f.file("restored.txt", "another"))
        #expect(other.name == "restored.txt")
        #expect(!f.trash.contains(restored), "same name, another inode")

        #expect(try f.gio("trash", "--empty").status == 0)
        #expect(!f.trash.contains(kept))
        #expect(throws: TrashError.entryGone(name: "kept.txt", originalPath: f.home + "/kept.txt")) {
            try f.trash.restore(kept)
        }
    }

    @Test func aRedoPutsTheItemBackAsTheSameEntryUnderItsNameOrAnother() throws {
        let f = try TrashFixture()
        let path = try f.file("draft.txt", "d")
        let entry = try f.trash.trash(path)
        try f.trash.restore(entry)
        // Redone: the same entry, under the same name.
        #expect(try f.trash.trashAgain(entry) == entry)
        #expect(f.trash.locate(entry) == entry)
        try f.trash.restore(entry)
        // Its name taken meanwhile by another draft.txt: found by its token under another.
        let other = try f.trash.trash(try f.file("sub/draft.txt", "other"))
        #expect(other.name == "draft.txt")
        let again = try f.trash.trashAgain(entry)
        #expect(again.name == "draft.2.txt" && again.token == entry.token)
        #expect(f.trash.locate(entry) == again, "the first entry finds it by its token")
        #expect(f.trash.locate(other) == other)
        try f.trash.restore(entry)
        #expect(f.text(path) == "d")
        #expect(f.text(f.dataHome + "/Trash/files/draft.txt") == "other", "the other draft stays")
        // A redo after the file was replaced finds it changed, and changes nothing.
        try FileManager.default.removeItem(atPath: path)
        try f.file("draft.txt", "new")
        #expect(throws: TrashError.changed(path: path)) { try f.trash.trashAgain(entry) }
        #expect(f.text(path) == "new")
    }

    @Test func anItemWhoseFolderIsGoneStaysInTheTrash() throws {
        let f = try TrashFixture()
        let entry = try f.trash.trash(try f.file("gone/deep/x.txt", "x"))
        try FileManager.default.removeItem(atPath: f.home + "/gone")
        #expect(throws: TrashError.folderGone(path: f.home + "/gone/deep/x.txt", folder: f.home + "/gone/deep")) {
            try f.trash.restore(entry)
        }
        #expect(f.trash.contains(entry))
        #expect(TrashError.folderGone(path: "/h/gone/deep/x.txt", folder: "/h/gone/deep").description
                == "/h/gone/deep/x.txt cannot come back: its folder /h/gone/deep is gone")
    }

    @Test func whatCannotGoToATrashIsRefusedAndLeftAlone() throws {
        let f = try TrashFixture()
        #expect(throws: TrashError.missing(path: f.home + "/nothing")) { try f.trash.trash(f.home + "/nothing") }
        try f.trash.trash(try f.file("x"))
        #expect(throws: TrashError.inTrash(path: f.dataHome + "/Trash/files/x")) {
            try f.trash.trash(f.dataHome + "/Trash/files/x")
        }
        #expect(throws: TrashError.inTrash(path: f.dataHome + "/Trash")) { try f.trash.trash(f.dataHome + "/Trash") }
        #expect(f.exists(f.dataHome + "/Trash/files/x"))
        #expect(throws: TrashError.volumeTop(path: "/dev/shm")) { try f.trash.trash("/dev/shm") }
        #expect(TrashError.missing(path: "/a").description == "/a does not exist")
    }

    @Test(.enabled(if: Volume.shmIsAnotherVolume, "/dev/shm is not a volume of its own here"))
    func aFileOnAnotherVolumeGoesToThatVolumesTrashWithAPathRelativeToItsTop() throws {
        let f = try TrashFixture()
        let folder = "/dev/shm/undod-trash-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("on shm".utf8).write(to: URL(fileURLWithPath: folder + "/shm file.txt"))
        let entry = try f.trash.trash(folder + "/shm file.txt")
        defer { try? FileManager.default.removeItem(atPath: entry.trashedPath) }
        let trashDirectory = "/dev/shm/.Trash-\(getuid())"
        let shared = (try? FileManager.default.attributesOfItem(atPath: "/dev/shm/.Trash")) != nil
        #expect(entry.directory == trashDirectory || shared)
        #expect(f.text(entry.trashedPath) == "on shm")
        let info = try #require(f.text(entry.infoPath))
        #expect(info.contains("\nPath=" + String(folder.dropFirst("/dev/shm/".count)) + "/shm%20file.txt\n"))
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: entry.directory)[.posixPermissions] as? Int)
        #expect(mode == 0o700)
        try f.trash.restore(entry)
        #expect(f.text(folder + "/shm file.txt") == "on shm")
    }
}

/// Whether /dev/shm is a file system of its own, apart from /tmp's.
enum Volume {
    static let shmIsAnotherVolume: Bool = {
        var shm = stat()
        var tmp = stat()
        return stat("/dev/shm", &shm) == 0 && stat(NSTemporaryDirectory(), &tmp) == 0 && shm.st_dev != tmp.st_dev
    }()
}
