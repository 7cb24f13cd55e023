import BusHarness
import DBus
import Foundation
import Testing

/// A disk that fills up under undod: the call fails with
/// StorageFailed, the change is not made, and nothing acknowledged is lost.
/// undod runs in its own mount namespace on a small tmpfs (root, unshare);
/// where that is not allowed the suite is skipped and says why.
@Suite(.enabled(if: MountNamespace.isAvailable,
                "needs root and `unshare -m` to give undod a small tmpfs of its own; run `make test` as root"))
struct StorageFailureTests {
    /// Runs undod with its state directory on a `size` tmpfs of its own
    /// (mounted read-only when `readOnly`).
    static func fixture(size: String, readOnly: Bool = false) throws -> DaemonFixture {
        let remount = readOnly ? " && mount -o remount,ro \"$0\"" : ""
        let script = "mount -t tmpfs -o size=\(size),mode=0700 undod-test \"$0\"\(remount) && exec \"$@\""
        // The state directory is made below; the wrapper mounts over it.
        return try DaemonFixture(wrapper: ["unshare", "-m", "sh", "-c", script, "@STATE@"])
    }

    /// Runs `command` in undod's mount namespace (where its tmpfs is).
    @discardableResult
    static func inside(_ f: DaemonFixture, _ command: [String]) throws -> ToolResult {
        try runTool(["nsenter", "-t", "\(f.daemon.process.processIdentifier)", "-m"] + command, loop: f.loop)
    }

    /// What a stored stack holds before undod stops: its path, its
    /// history, and the id of its top group ("Two", payloads [2, 2]).
    struct Stored {
        let path: String
        let history: [DBusValue]
        let top: UInt64
    }

    /// An app of `appId` that pushes "One" and "Two", and what it stored.
    static func pushTwo(_ f: DaemonFixture, _ appId: String) throws -> (TestApp, Stored) {
        let app = try f.app(appId, options: ["title": .string(appId)])
        try app.push("One", undo: [1], redo: [1])
        let top = try app.push("Two", undo: [2, 2], redo: [3])
        return (app, Stored(path: app.stack, history: try f.stack(app.stack, "History"), top: top))
    }

    /// Starts undod again on the same state directory, bind-mounted
    /// read-only in undod's own namespace; then `stored` must be exported
    /// as it was, and an app may adopt it, but not undo "Two": the undo
    /// could not be saved, and a later undod would hand it out again.
    static func restartReadOnly(_ f: DaemonFixture, expecting stored: Stored, of appId: String) throws {
        let script = "mount --bind \"$0\" \"$0\" && mount -o remount,bind,ro \"$0\" && exec \"$@\""
        f.daemon = try DaemonProcess(bus: f.bus, loop: f.loop, watcher: f.watcher, stateDirectory: f.daemon.stateDirectory,
                                     wrapper: ["unshare", "-m", "sh", "-c", script, "@STATE@"])
        #expect(f.daemon.logKeyCount("store.read-only") == 1, "\(f.daemon.log)")
        #expect(try f.stack(stored.path, "History") == stored.history, "the stored stack is exported as it was")
        let returned = try f.app()
        #expect(try returned.register(appId) == stored.path)
        let refused = errorOf { () throws(DBusError) in try returned.call("Undo") }
        #expect(refused?.name == undodError("StorageFailed"), "\(String(describing: refused))")
        #expect(refused?.message.contains("can only be read") == true && refused?.message.contains("“Two”") == true)
        #expect(returned.applied.isEmpty, "nothing was handed to the app")
        #expect(try f.stack(stored.path, "History") == stored.history, "the stack is as it was")
        // What is pushed in this run moves as ever, in memory.
        let fresh = try returned.push("Fresh")
        #expect(try returned.call("Undo") == [.uint64(fresh), .string("Fresh")])
        returned.quit()
    }

    @Test func aStoreInADirectoryMadeReadOnlyIsStillReadAndItsIdsAreNeverHandedOutAgain() throws {
        let f = try DaemonFixture()
        let (app, stored) = try Self.pushTwo(f, "org.example.Kept")
        app.quit()
        f.daemon.signal(SIGTERM)
        #expect(f.daemon.waitForExit(loop: f.loop) == 0)
        try Self.restartReadOnly(f, expecting: stored, of: "org.example.Kept")
        let other = try f.app("org.example.New")
        #expect(stackNumber(other.stack) > stackNumber(stored.path), "no stored stack number is handed out again")
        #expect(try other.push("Fresh") > stored.top, "no stored group id is handed out again")
        // Writable again: the stored history is the app's document's, and "Two" is undone once.
        other.quit()
        f.daemon.signal(SIGTERM)
        #expect(f.daemon.waitForExit(loop: f.loop) == 0)
        f.daemon = try DaemonProcess(bus: f.bus, loop: f.loop, watcher: f.watcher, stateDirectory: f.daemon.stateDirectory)
        let back = try f.app()
        #expect(try back.register("org.example.Kept") == stored.path)
        #expect(try back.call("Undo") == [.uint64(stored.top), .string("Two")])
        #expect(back.applied.first?.payloads == [[2, 2]])
    }

    /// A store left by a crash holds its last commits in the journal only,
    /// and those SQLite took from it before in its write-ahead log only; in
    /// a directory that cannot be written they are read too (SQLite reads
    /// the log without writing its index, and the journal is applied to a
    /// copy of the database in memory), never lost from view.
    @Test func aReadOnlyStoreLeftByACrashIsReadWithItsJournalAndLog() throws {
        let f = try DaemonFixture()
        // 128 turns have SQLite take the journal: these go to the log.
        let filler = try f.app("org.example.Filler")
        for index in 0..<130 { try filler.push("Filler \(index)") }
        let fillerHistory = try f.stack(filler.stack, "History")
        let (app, stored) = try Self.pushTwo(f, "org.example.Crashed")
        f.daemon.signal(SIGKILL)
        _ = f.daemon.waitForExit(loop: f.loop)
        app.quit()
        filler.quit()
        let state = f.daemon.stateDirectory
        func size(_ name: String) -> Int {
            (try? FileManager.default.attributesOfItem(atPath: state.appendingPathComponent(name).path)[.size] as? Int) ?? 0
        }
        #expect(size("history.sqlite3-wal") > 0, "the crash left the first turns in the log")
        #expect(size("history.journal") > 16, "and the last ones in the journal")
        try Self.restartReadOnly(f, expecting: stored, of: "org.example.Crashed")
        #expect(try f.stack(filler.stack, "History") == fillerHistory, "the log's turns are read too")
    }

    @Test func aReadOnlyStateDirectoryKeepsHistoryInMemoryAndSaysSo() throws {
        let f = try Self.fixture(size: "1m", readOnly: true)
        #expect(f.daemon.logKeyCount("store.read-only") == 1, "\(f.daemon.log)")
        let app = try f.app("app.readonly", pushing: ["one"])
        #expect(try app.property("Persistent") == .bool(false), "no stack claims to be on disk")
        let asked = try f.app("app.readonly.persist", pushing: ["two"], options: ["persist": .bool(true)])
        #expect(try asked.property("Persistent") == .bool(false))
        _ = try app.call("Undo")
        #expect(app.applied.count == 1, "undo works all the same")
    }

    @Test func aFullDiskRefusesThePushAndKeepsTheRest() throws {
        let f = try Self.fixture(size: "400k")
        let app = try f.app("app.full")
        try app.push("small", undo: [1], redo: [2])
        var refused: DBusError?
        var acknowledged = 1
        let chunk = [UInt8](repeating: 0x5A, count: 48 * 1024)
        for index in 0..<40 {
            let before = try f.stack(app.stack, "History")
            do {
                try app.push("big \(index)", undo: chunk, redo: chunk)
                acknowledged += 1
            } catch {
                refused = error
                #expect(try f.stack(app.stack, "History") == before, "a refused push changes nothing")
                break
            }
        }
        #expect(refused?.name == undodError("StorageFailed"), "the disk filled up: \(String(describing: refused))")
        #expect(refused?.message.contains("not made") == true)
        #expect(try app.property("UndoDepth") == .uint32(UInt32(acknowledged)))
        #expect(f.daemon.logKeyCount("store.save-failed") >= 1, "\(f.daemon.log)")
        // The daemon goes on: a read still works, and so does an undo of an acknowledged group.
        #expect(try f.managerProperty("FocusedStack") == .objectPath(app.stack))
    }

    @Test func anUndoAppliedWhileTheDiskIsFullStaysInMemoryAndIsSavedLater() throws {
        let f = try Self.fixture(size: "1m")
        let app = try f.app("app.diskfull", pushing: ["one", "two"])
        let filler = f.daemon.stateDirectory.appendingPathComponent("filler").path
        try Self.inside(f, ["dd", "if=/dev/zero", "of=\(filler)", "bs=64k"])
        // The journal's last page may still take a few small records: pushes fill it until one is refused.
        var push: DBusError?
        var refused = ""
        for index in 0..<300 where push == nil {
            let before = try f.stack(app.stack, "History")
            refused = "filling \(index)"
            push = errorOf { () throws(DBusError) in
                try app.push(refused, undo: [UInt8](repeating: 1, count: 64), redo: [2])
            }
            if push != nil { #expect(try f.stack(app.stack, "History") == before, "the push was not made") }
        }
        #expect(push?.name == undodError("StorageFailed"))
        #expect(try app.property("UndoName") != .string(refused))
        let depth = try app.property("UndoDepth")?.uint32 ?? 0

        // An undo or redo writes a smaller record: they go on until one cannot be written.
        var move: DBusError?
        var moves = 0
        while move == nil, moves < 600 {
            move = errorOf { () throws(DBusError) in _ = try f.stack(app.stack, moves % 2 == 0 ? "Undo" : "Redo") }
            moves += 1
        }
        #expect(move?.name == undodError("StorageFailed"))
        #expect(move?.message.contains("not yet on disk") == true)
        #expect(app.applied.count == moves, "the app applied it")
        let undone = UInt32(moves % 2)
        #expect(try app.property("UndoDepth") == .uint32(depth - undone), "so memory keeps the move")
        #expect(try app.property("RedoDepth") == .uint32(undone))

        try Self.inside(f, ["rm", filler])
        try app.push("three")
        let saving = LogLine.lines(of: f.daemon.log).compactMap(\.key).filter { ["store.save-failed", "store.saves-again"].contains($0) }
        #expect(saving.last == "store.saves-again", "the last word on saving is that it works again: \(f.daemon.log)")
        // The tmpfs lives only as long as undod's namespace: copy the store
        // (its journal too, as a killed undod leaves it) out and read it
        // with a second undod on a bus of its own.
        let copy = f.bus.directory.appendingPathComponent("copy")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let state = f.daemon.stateDirectory.path
        try Self.inside(f, ["sh", "-c", "cp \"$0\"/history.* \"$1\"/", state, copy.path])
        let bus = try TestBus()
        defer { bus.stop() }
        let watcher = try Connection(address: bus.address, loop: f.loop)
        defer { watcher.close() }
        let second = try DaemonProcess(bus: bus, loop: f.loop, watcher: watcher, stateDirectory: copy)
        defer { second.stop() }
        let reader = try TestApp(address: bus.address, loop: f.loop)
        defer { reader.quit() }
        try reader.register("app.diskfull")
        #expect(try reader.property("UndoName") == .string("three"))
        #expect(try reader.property("RedoDepth") == .uint32(0))
        #expect(try reader.property("UndoDepth") == .uint32(depth - undone + 1),
                "what was pushed, less the undo kept in memory, and three")
    }

    /// A merge into a group whose actions are in a payload file, refused by a
    /// full disk, leaves the group as it was on disk, file and all: a later
    /// commit that writes other changes must not remove the file.
    @Test func aMergeIntoAFileGroupRefusedByAFullDiskKeepsTheFile() throws {
        let f = try Self.fixture(size: "16m")
        let app = try f.app("app.filegroup")
        let merge: [String: DBusValue] = ["merge_key": .string("typing"), "merge_window_ms": .uint32(600_000)]
        let large = [UInt8]((0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try app.push("Large", undo: large, redo: [1], hints: merge)
        let filler = f.daemon.stateDirectory.appendingPathComponent("filler").path
        try Self.inside(f, ["dd", "if=/dev/zero", "of=\(filler)", "bs=64k"])
        let refused = errorOf { () throws(DBusError) in try app.push("Large", undo: [9], redo: [8], hints: merge) }
        #expect(refused?.name == undodError("StorageFailed"), "\(String(describing: refused))")
        try Self.inside(f, ["rm", filler])
        // The next commit, which also writes what is left of the refused merge's stack, succeeds
        // now. (A new stack is refused until one has: the store still counts as failing.)
        _ = try app.call("SetClean")
        let undo = try f.stack(app.stack, "Undo")
        #expect(undo.first?.uint64 != 0, "\(f.daemon.log)")
        #expect(app.applied.first?.payloads == [large], "the group's actions, as first pushed")
    }
}

/// The number at the end of a stack's object path.
private func stackNumber(_ path: String) -> UInt64 {
    UInt64(path.split(separator: "/").last ?? "") ?? 0
}
