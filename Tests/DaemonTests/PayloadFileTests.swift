import BusHarness
import DBus
import Foundation
import Testing

/// A push of a MiB or more to a persistent stack keeps its actions in a
/// file of its own (in `payloads/` in the state directory), written and
/// synced off the loop while the call waits; the group's row names it. What the
/// database promises holds for the file too: an answered push survives
/// SIGKILL, the bytes come back exactly, a damaged or missing file is
/// reported corrupt and never applied, and nothing is left behind.
@Suite struct PayloadFileTests {
    static let big = [UInt8]((0..<(3 << 19)).map { UInt8(truncatingIfNeeded: $0 &* 31) })

    /// The payload files' directory of `f`'s undod.
    static func payloads(_ f: DaemonFixture) -> URL {
        f.daemon.stateDirectory.appendingPathComponent("payloads")
    }

    /// The names in the payload files' directory, sorted.
    static func names(_ f: DaemonFixture) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: payloads(f).path)) ?? []).sorted()
    }

    /// What the database says of group `id`: its row's payload length and the file it names.
    static func row(_ f: DaemonFixture, group id: UInt64) throws -> String {
        let store = f.daemon.stateDirectory.appendingPathComponent("history.sqlite3").path
        let result = try runTool(["/usr/bin/python3", "-c", """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            print(*db.execute("SELECT length(payload), file FROM groups WHERE id = ?", (int(sys.argv[2]),)).fetchone())
            """, store, String(id)], loop: f.loop)
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The name of group `id`'s payload file, as its row says.
    static func file(_ f: DaemonFixture, group id: UInt64) throws -> String {
        String(try row(f, group: id).split(separator: " ").last ?? "")
    }

    @Test func aLargePushLivesInItsOwnFileAndSurvivesSIGKILL() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Big", pushing: ["Small"])
        let group = try app.push("Big", undo: Self.big, redo: [9])
        let names = Self.names(f)
        #expect(names.count == 1, "the group's file, and nothing else: \(names)")
        let mode = try FileManager.default.attributesOfItem(atPath: Self.payloads(f).appendingPathComponent(names.first ?? "").path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        try f.restart(crash: true)
        #expect(try Self.row(f, group: group) == "0 \(names.first ?? "")", "an empty row naming the file")
        let back = try f.app()
        try back.register("org.example.Big")
        #expect(try back.property("UndoName") == .string("Big"))
        _ = try back.call("Undo")
        #expect(back.applied.first?.payloads == [Self.big], "the bytes come back exactly")
        // A small push clears the redo side: the group's file goes with its row.
        try back.push("Next")
        #expect(f.wait { Self.names(f).isEmpty }, "\(Self.names(f))")
    }

    @Test func aSetAsideJournalKeepsThePayloadFilesOnlyItNames() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Big", pushing: ["Small"])
        _ = try app.push("Big", undo: Self.big, redo: [9])
        let name = try #require(Self.names(f).first)
        f.daemon.crash(loop: f.loop, watcher: f.watcher)
        // The database is lost (say, deleted by hand): the journal no longer goes on top of it.
        let state = f.daemon.stateDirectory
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(at: state.appendingPathComponent("history.sqlite3" + suffix))
        }
        f.daemon = try DaemonProcess(bus: f.bus, loop: f.loop, watcher: f.watcher, stateDirectory: state)
        let notes = f.daemon.logLines(withKey: "store.journal-lost") + f.daemon.logLines(withKey: "store.journal")
        #expect(notes.contains { $0.contains("set aside as \(f.daemon.stateDirectory.path)") }, "\(f.daemon.log)")
        let entries = try FileManager.default.contentsOfDirectory(atPath: state.path)
        let kept = try #require(entries.first { $0.hasPrefix("history.journal.set-aside-") && $0.hasSuffix(".files") },
                                "\(entries)")
        let file = state.appendingPathComponent(kept).appendingPathComponent(name)
        #expect(try Data(contentsOf: file).count > Self.big.count, "the large group's file went with its journal")
        #expect(notes.contains { $0.contains("\(kept)") }, "the note names where the file went: \(f.daemon.log)")
        #expect(Self.names(f).isEmpty, "and the fresh store's directory holds none")
    }

    @Test func aSmallPushAndAMergeKeepTheirActionsInTheRow() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Big", pushing: ["Small"])
        let merge: [String: DBusValue] = ["merge_key": .string("typing"), "merge_window_ms": .uint32(600_000)]
        let first = try app.push("Typing", undo: [1, 2, 3], redo: [4], hints: merge)
        let merged = try app.push("Typing", undo: Self.big, redo: [5], hints: merge)
        #expect(merged == first, "merged")
        #expect(Self.names(f).isEmpty, "a merged group's row holds all its actions")
        try f.restart(crash: true)
        let back = try f.app()
        try back.register("org.example.Big")
        _ = try back.call("Undo")
        #expect(back.applied.first?.payloads == [Self.big, [1, 2, 3]])
    }

    @Test func filesNoRowNamesAreRemovedAtStart() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Big", pushing: ["Small"])
        let group = try app.push("Big", undo: Self.big, redo: [])
        app.quit()
        try f.restart(crash: false)
        // What a crash mid-write, or a row deleted just before one, leaves.
        f.daemon.signal(SIGTERM)
        #expect(f.daemon.waitForExit(loop: f.loop) == 0)
        let kept = try Self.file(f, group: group)
        for stray in [".incoming-1-1", "1-2-3", "\(group + 1000)"] {
            try Data([1, 2, 3]).write(to: Self.payloads(f).appendingPathComponent(stray))
        }
        try f.restart(crash: true)
        let back = try f.app()
        try back.register("org.example.Big")
        #expect(Self.names(f) == [kept], "\(Self.names(f))")
        _ = try back.call("Undo")
        #expect(back.applied.first?.payloads == [Self.big])
    }

    @Test func aDamagedOrMissingFileIsCorruptAndNeverApplied() throws {
        let f = try DaemonFixture()
        let first = try f.app("org.example.Damaged", pushing: ["Small"])
        let damaged = try first.push("Damaged", undo: Self.big, redo: [])
        let second = try f.app("org.example.Missing", pushing: ["Small"])
        let missing = try second.push("Missing", undo: Self.big, redo: [])
        first.quit()
        second.quit()
        f.daemon.signal(SIGTERM)
        #expect(f.daemon.waitForExit(loop: f.loop) == 0)
        let damagedFile = Self.payloads(f).appendingPathComponent(try Self.file(f, group: damaged))
        var bytes = try Data(contentsOf: damagedFile)
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: damagedFile)
        try FileManager.default.removeItem(at: Self.payloads(f).appendingPathComponent(try Self.file(f, group: missing)))
        try f.restart(crash: true)
        for appId in ["org.example.Damaged", "org.example.Missing"] {
            let back = try f.app()
            try back.register(appId)
            let refused = errorOf { () throws(DBusError) in try back.call("Undo") }
            #expect(refused?.name == undodError("StorageFailed"), "\(appId): \(String(describing: refused))")
            #expect(back.applied.isEmpty, "nothing damaged reaches the app")
        }
        #expect(f.daemon.logKeyCount("store.group-damaged") == 2, "one line each: \(f.daemon.log)")
    }

    /// A file whose name cannot be made to last (strace fails every
    /// `fsync` of `payloads/` with EIO): its actions go into the database
    /// instead, the file is removed, and the push survives SIGKILL as any
    /// other.
    @Test(.enabled(if: FaultInjection.isAvailable, "needs strace, allowed to trace a child (ptrace)"))
    func aFileWhoseNameCannotBeSyncedGoesIntoTheDatabaseInstead() throws {
        let f = try DaemonFixture(wrapper: FaultInjection.wrapper(touching: "@STATE@/payloads", ["fsync:error=EIO"]))
        let app = try f.app("org.example.Big", pushing: ["Small"])
        let group = try app.push("Big", undo: Self.big, redo: [9])
        #expect(Self.names(f).isEmpty, "no file is left: \(Self.names(f))")
        app.quit()
        try f.restart(crash: true)
        let row = try Self.row(f, group: group).split(separator: " ")
        #expect(row.count == 1 && (Int(row.first ?? "") ?? 0) > Self.big.count, "the actions in the row, no file named: \(row)")
        let back = try f.app()
        try back.register("org.example.Big")
        _ = try back.call("Undo")
        #expect(back.applied.first?.payloads == [Self.big], "the bytes come back exactly")
    }

    @Test func aLinkInThePayloadsPlaceIsNeverWrittenThrough() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Big", pushing: ["Small"])
        let group = try app.push("Big", undo: Self.big, redo: [])
        app.quit()
        f.daemon.signal(SIGTERM)
        #expect(f.daemon.waitForExit(loop: f.loop) == 0)
        // The directory moved elsewhere, with files of the user's beside the group's, and a link in its place.
        let elsewhere = f.bus.directory.appendingPathComponent("elsewhere")
        try FileManager.default.moveItem(at: Self.payloads(f), to: elsewhere)
        for name in ["\(group + 1)", ".incoming-1-1"] {
            try Data("the user's own \(name)".utf8).write(to: elsewhere.appendingPathComponent(name))
        }
        try FileManager.default.createSymbolicLink(at: Self.payloads(f), withDestinationURL: elsewhere)
        let before = try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).sorted()
        try f.restart(crash: true)
        let back = try f.app()
        try back.register("org.example.Big")
        try back.push("Bigger", undo: Self.big, redo: [])
        // The stack deleted for good: its rows go, the file behind the link stays.
        _ = try back.call("Close", [.bool(true)])
        try f.restart(crash: false)
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).sorted() == before,
                "nothing written, swept or removed through the link")
        #expect(try Data(contentsOf: elsewhere.appendingPathComponent("\(group + 1)"))
                == Data("the user's own \(group + 1)".utf8))
    }

    @Test func aStackDeletedForGoodTakesItsFilesWithIt() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Big", pushing: ["Small"])
        try app.push("Big", undo: Self.big, redo: [])
        _ = try app.call("Close", [.bool(true)])
        #expect(f.wait { Self.names(f).isEmpty }, "\(Self.names(f))")
    }

    @Test func theSendersLaterCallsWaitBehindItsLargePush() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Big", pushing: ["Small"])
        let arguments: (String, [UInt8]) -> [DBusValue] = { [.string($0), .bytes($1), .bytes([]), .vardict([:])] }
        let big = try f.send(from: app.connection, app.stack, "org.undod.Undo1.Stack", "Push", arguments("Big", Self.big))
        let after = try f.send(from: app.connection, app.stack, "org.undod.Undo1.Stack", "Push", arguments("After", [7]))
        #expect(f.wait { big.isDone && after.isDone })
        let bigGroup = big.values?.first?.uint64 ?? 0, afterGroup = after.values?.first?.uint64 ?? 0
        #expect(bigGroup != 0 && afterGroup > bigGroup, "in the order sent: \(bigGroup), \(afterGroup)")
        #expect(try app.property("UndoName") == .string("After"))
    }
}
