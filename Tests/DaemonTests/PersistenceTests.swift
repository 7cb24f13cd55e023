import BusHarness
import DBus
import Foundation
import Loop
import Testing

/// History that survives the daemon: the SQLite store, adoption across
/// restarts, memory-only stacks, the state directory.
@Suite struct PersistenceTests {
    @Test func historyComesBackDetachedAndIsAdoptedWithItsPayloads() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Editor", options: ["title": .string("Editor"), "limit": .uint32(7)])
        let path = app.stack
        try app.push("One", undo: [1, 1], redo: [2, 2])
        try app.push("Two", undo: [3], redo: [4], hints: ["state_tag": .string("t2")])
        _ = try app.call("PushGroup", [.string("Three"), .array(element: "(ayay)", [
            .structure([.bytes([5]), .bytes([6])]), .structure([.bytes([7]), .bytes([8])]),
        ]), .vardict([:])])
        _ = try app.call("Undo")
        _ = try app.call("SetClean")
        let history = try f.stack(path, "History")
        app.quit()
        try f.restart()

        // Exported at once, detached, with its properties.
        #expect(try f.stack(path, "History") == history)
        let restored = try f.app()
        #expect(try restored.property("Owner", on: path) == .string(""))
        #expect(try restored.property("Title", on: path) == .string("Editor"))
        #expect(try restored.property("Limit", on: path) == .uint32(7))
        #expect(try restored.property("Clean", on: path) == .bool(true))
        #expect(try restored.property("Persistent", on: path) == .bool(true))
        #expect(try restored.property("RedoName", on: path) == .string("Three"))

        #expect(try restored.register("org.example.Editor", ["state_tag": .string("t2")]) == path)
        _ = try restored.call("Redo")
        _ = try restored.call("Undo")
        _ = try restored.call("Undo")
        #expect(restored.applied.map(\.payloads) == [[[6], [8]], [[7], [5]], [[3]]],
                "payloads read back from disk, in the right order")
        let newGroup = try restored.push("Four")
        let oldIDs = history.flatMap { $0.elements ?? [] }.compactMap { $0.fields?.first?.uint64 }
        #expect(oldIDs.allSatisfy { $0 < newGroup }, "group ids are never reused across restarts")
    }

    @Test func aMismatchingStateTagAfterRestartStartsEmpty() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Editor")
        try app.push("Edit", hints: ["state_tag": .string("hash-1")])
        app.quit()
        try f.restart()
        let next = try f.app()
        try next.register("org.example.Editor", ["state_tag": .string("hash-2")])
        #expect(try next.property("UndoDepth") == .uint32(0))
        #expect(f.daemon.logKeyCount("stack.history-discarded", holding: "hash-2") == 1, "the log says so: \(f.daemon.log)")
        try f.restart()
        #expect(try f.stack(next.stack, "History") == [.array(element: "(tsxt)", []), .array(element: "(tsxt)", [])],
                "the discarded history is gone from disk too")
    }

    @Test func memoryOnlyStacksNeverTouchTheDisk() throws {
        let f = try DaemonFixture()
        let secret = [UInt8]("correct horse battery staple 7e3f".utf8)
        let visible = [UInt8]("an ordinary persistent payload 41".utf8)
        let password = try f.app("org.example.Password", options: ["persist": .bool(false)])
        #expect(try password.property("Persistent") == .bool(false))
        try password.push("Type", undo: secret, redo: secret)
        let editor = try f.app("org.example.Editor")
        try editor.push("Type", undo: visible, redo: visible)
        try f.restart()
        let files = try Self.files(under: f.daemon.stateDirectory)
        #expect(!files.isEmpty)
        let contents = try files.map { try Data(contentsOf: $0) }
        #expect(!contents.contains { $0.range(of: Data(secret)) != nil }, "memory-only payloads are on no file")
        #expect(contents.contains { $0.range(of: Data(visible)) != nil }, "while persistent ones are")
        let gone = errorOf { () throws(DBusError) in try f.stack(password.stack, "History") }
        #expect(gone?.name == "org.freedesktop.DBus.Error.UnknownObject", "a memory-only stack ends with the daemon")
    }

    @Test func aStackThatStopsPersistingLeavesTheDisk() throws {
        let f = try DaemonFixture()
        let marker = [UInt8]("this must leave the disk 9c1d".utf8)
        let app = try f.app("org.example.Editor")
        try app.push("Type", undo: marker, redo: [1])
        try app.register("org.example.Editor", ["persist": .bool(false)])
        #expect(try app.property("Persistent") == .bool(false))
        _ = try app.call("Undo")
        #expect(app.applied.first?.payloads == [marker], "the history stays in memory")
        try f.restart()
        for file in try Self.files(under: f.daemon.stateDirectory) {
            #expect(try Data(contentsOf: file).range(of: Data(marker)) == nil, "\(file.lastPathComponent) holds it")
        }
    }

    @Test func trimmedAndClearedGroupsStayGoneAfterARestart() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Trim", options: ["limit": .uint32(3)])
        for n in 1...7 { try app.push("g\(n)", undo: [UInt8(n)], redo: [UInt8(n)]) }
        _ = try app.call("Undo")
        let history = try f.stack(app.stack, "History")
        let other = try f.app("org.example.Cleared", pushing: ["x", "y"])
        _ = try other.call("Undo")
        _ = try other.call("Clear")
        try f.restart(crash: true)
        #expect(try f.stack(app.stack, "History") == history, "only the three kept groups come back")
        #expect(try f.stack(other.stack, "History") == [.array(element: "(tsxt)", []), .array(element: "(tsxt)", [])])
        try app.register("org.example.Trim")
        _ = try app.call("Redo")
        #expect(app.applied.last?.payloads == [[7]])
    }

    @Test func persistOffAndOnAgainWritesTheHistoryAsItIsNow() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Flip")
        try app.push("A", undo: [1], redo: [1])
        try app.push("B", undo: [2], redo: [2])
        _ = try app.call("Undo")
        try app.register("org.example.Flip", ["persist": .bool(false)])
        try app.push("C", undo: [3], redo: [3])
        try app.register("org.example.Flip", ["persist": .bool(true)])
        app.quit()
        try f.restart()
        let next = try f.app()
        try next.register("org.example.Flip")
        let names = try f.stack(next.stack, "History").first?.elements?.compactMap { $0.fields?[1].string }
        #expect(names == ["C", "A"], "B was discarded while the stack was memory-only")
        #expect(try next.property("RedoDepth") == .uint32(0))
        _ = try next.call("Undo")
        _ = try next.call("Undo")
        #expect(next.applied.map(\.payloads) == [[[3]], [[1]]])
    }

    /// Stack numbers, which people type, go on from the last one after a
    /// restart (a crash included), and none is handed out again: not a
    /// forgotten stack's, not a memory-only one's.
    @Test func stackNumbersStayDenseAcrossRestartsAndAreNeverReused() throws {
        func number(_ path: String) -> UInt64 { UInt64(path.split(separator: "/").last ?? "") ?? 0 }
        let f = try DaemonFixture()
        let first = try f.app("app.one", pushing: ["1"])
        let gone = try f.app("app.gone", pushing: ["1"])
        let memory = try f.app("app.memory", options: ["persist": .bool(false)])
        #expect([number(first.stack), number(gone.stack), number(memory.stack)] == [1, 2, 3])
        _ = try gone.call("Close", [.bool(false)])
        _ = try f.manager("Forget", [.objectPath(gone.stack)])
        try f.restart()
        let next = try f.app("app.next")
        #expect(number(next.stack) == 4, "on from 3, the memory-only stack's number")
        try f.restart(crash: true)
        let after = try f.app("app.after")
        #expect(number(after.stack) == 5, "a crash loses no number and reuses none")
    }

    @Test func forgottenAndDiscardedStacksStayGone() throws {
        let f = try DaemonFixture()
        let a = try f.app("app.forget", pushing: ["1"])
        let b = try f.app("app.discard", pushing: ["1"])
        let c = try f.app("app.keep", pushing: ["1"])
        _ = try a.call("Close", [.bool(false)])
        _ = try f.manager("Forget", [.objectPath(a.stack)])
        _ = try b.call("Close", [.bool(true)])
        try f.restart()
        for path in [a.stack, b.stack] {
            let error = errorOf { () throws(DBusError) in try f.stack(path, "History") }
            #expect(error?.name == "org.freedesktop.DBus.Error.UnknownObject")
        }
        #expect(try f.stack(c.stack, "History").first?.elements?.count == 1)
    }

    @Test func detachedStacksExpireAfterTheirTTL() throws {
        let f = try DaemonFixture(config: "[stacks]\ndetached_ttl = 1s\n")
        let signals = try f.recordSignals()
        let app = try f.app("app.ttl", pushing: ["1"])
        let path = app.stack
        let other = try f.app("app.ttl.memory", pushing: ["1"], options: ["persist": .bool(false)])
        app.quit()
        other.quit()
        #expect(f.wait { signals.arguments(of: "InterfacesRemoved").count == 2 })
        #expect(signals.arguments(of: "InterfacesRemoved").map { $0.first } .contains(.objectPath(path)))
        try f.restart()
        let error = errorOf { () throws(DBusError) in try f.stack(path, "History") }
        #expect(error?.name == "org.freedesktop.DBus.Error.UnknownObject")
    }

    @Test func storedStacksPastTheirTTLAreRemovedAtStart() throws {
        let f = try DaemonFixture()
        let signals = try f.recordSignals()
        let app = try f.app("app.old", pushing: ["1"])
        app.quit()
        #expect(f.wait { signals.announced(app.stack, "Owner", .string("")) })
        try f.restart(config: "[stacks]\ndetached_ttl = 1ms\n")
        let error = errorOf { () throws(DBusError) in try f.stack(app.stack, "History") }
        #expect(error?.name == "org.freedesktop.DBus.Error.UnknownObject")
    }

    /// A change is in the journal once answered; a killed daemon leaves
    /// the last ones there, and the next start applies them and says so.
    @Test func whatAKilledDaemonLeftInItsJournalIsAppliedAtTheNextStart() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Killed", pushing: ["One", "Two"])
        _ = try app.call("Undo")
        let history = try f.stack(app.stack, "History")
        let journal = f.daemon.stateDirectory.appendingPathComponent("history.journal").path
        let size = { (try? FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int) ?? 0 }
        #expect(size() > 16, "the changes wait in the journal")
        f.daemon.signal(SIGKILL)
        _ = f.daemon.waitForExit(loop: f.loop)
        app.quit()
        f.daemon = try DaemonProcess(bus: f.bus, loop: f.loop, watcher: f.watcher, stateDirectory: f.daemon.stateDirectory)
        #expect(f.daemon.logKeyCount("store.journal") == 1, "the log says so: \(f.daemon.log)")
        #expect(try f.stack(app.stack, "History") == history)
        let returned = try f.app()
        #expect(try returned.register("org.example.Killed") == app.stack)
        _ = try returned.call("Redo")
        #expect(returned.applied.first?.payloads.isEmpty == false, "the undone group's actions came back")
    }

    /// A stopped undod leaves its history in the database's files alone:
    /// the journal's records are in SQLite, and its file is gone.
    @Test func aStoppedUndodLeavesNoJournal() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Stopped", pushing: ["One", "Two"])
        let history = try f.stack(app.stack, "History")
        let journal = f.daemon.stateDirectory.appendingPathComponent("history.journal").path
        #expect(FileManager.default.fileExists(atPath: journal))
        app.quit()
        f.daemon.signal(SIGTERM)
        #expect(f.daemon.waitForExit(loop: f.loop) == 0)
        #expect(!FileManager.default.fileExists(atPath: journal), "its records are in SQLite, its file gone")
        f.daemon = try DaemonProcess(bus: f.bus, loop: f.loop, watcher: f.watcher, stateDirectory: f.daemon.stateDirectory)
        #expect(f.daemon.logKeyCount("store.journal") == 0, "nothing was left to apply: \(f.daemon.log)")
        #expect(try f.stack(app.stack, "History") == history)
    }

    @Test func theStateDirectoryAndFilesArePrivate() throws {
        let f = try DaemonFixture()
        _ = try f.app("app.modes", pushing: ["1"])
        let directory = f.daemon.stateDirectory.path
        #expect(try Self.mode(directory) == 0o700)
        let files = try Self.files(under: f.daemon.stateDirectory)
        #expect(files.contains { $0.lastPathComponent == "history.sqlite3" })
        for file in files { #expect(try Self.mode(file.path) == 0o600, "\(file.lastPathComponent)") }
    }

    @Test func aDirectoryOthersCanWriteIsRefused() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let directory = bus.directory.appendingPathComponent("open-state")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        chmod(directory.path, 0o777)
        let empty = bus.directory.appendingPathComponent("empty.conf")
        try Data().write(to: empty)
        let run = try runTool([DaemonProcess.binary.path, "--address", bus.address, "--state-dir", directory.path,
                               "--config", empty.path])
        #expect(!run.errors.contains("config"), "an empty config is fine: \(run.errors)")
        #expect(run.status == 1)
        #expect(run.errors.contains("writable by others"))
        #expect(run.errors.contains("chmod 700"))
    }

    @Test func twoDaemonsNeverShareAStateDirectory() throws {
        let f = try DaemonFixture()
        let bus = try TestBus()
        defer { bus.stop() }
        let second = try runTool([DaemonProcess.binary.path, "--address", bus.address, "--config", f.daemon.configFile.path,
                                  "--state-dir", f.daemon.stateDirectory.path], loop: f.loop)
        #expect(second.status == 1)
        #expect(second.errors.contains("another undod is already running with the state directory"))
    }

    @Test func theRegisteredStateTagTagsTheStartingState() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Tagged", options: ["state_tag": .string("A")])
        try app.push("Edit", hints: ["state_tag": .string("B")])
        _ = try app.call("Undo")
        app.quit()
        try f.restart()
        let next = try f.app()
        try next.register("org.example.Tagged", ["state_tag": .string("A")])
        #expect(try next.property("RedoDepth") == .uint32(1), "the document is in state A, so the history fits")
    }

    @Test func aHugeTTLIsForeverNotACrash() throws {
        let f = try DaemonFixture(config: "[stacks]\ndetached_ttl = 200000000d\n")
        let app = try f.app("app.forever", pushing: ["1"])
        app.quit()
        try f.restart()
        #expect(try f.stack(app.stack, "History").first?.elements?.count == 1)
    }

    @Test func aCorruptStoreIsMovedAsideAndTheDaemonRuns() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let state = bus.directory.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
        try garbage.write(to: state.appendingPathComponent("history.sqlite3"))
        let loop = EventLoop()
        let watcher = try Connection(address: bus.address, loop: loop)
        defer { watcher.close() }
        let daemon = try DaemonProcess(bus: bus, loop: loop, watcher: watcher, stateDirectory: state)
        defer { daemon.stop() }
        #expect(daemon.logKeyCount("store.moved-aside") == 1, "\(daemon.log)")
        let names = try FileManager.default.contentsOfDirectory(atPath: state.path)
        #expect(names.contains { $0.hasPrefix("history.sqlite3.corrupt-") }, "\(names)")
        let app = try TestApp(address: bus.address, loop: loop)
        defer { app.quit() }
        try app.register("app.after.corruption")
        try app.push("works")
        #expect(try app.property("UndoDepth") == .uint32(1))
    }

    @Test func aStoreCorruptInsideIsMovedAsideToo() throws {
        let f = try DaemonFixture()
        _ = try f.app("app.one", pushing: ["1", "2"])
        f.daemon.signal(SIGTERM)
        #expect(f.daemon.waitForExit(loop: f.loop) == 0)
        // Damage every page after the first: the header reads, the tables do not.
        let file = f.daemon.stateDirectory.appendingPathComponent("history.sqlite3")
        var bytes = try Data(contentsOf: file)
        for index in stride(from: 4096 + 8, to: bytes.count, by: 1) { bytes[index] = 0xA5 }
        try bytes.write(to: file)
        try? FileManager.default.removeItem(at: f.daemon.stateDirectory.appendingPathComponent("history.sqlite3-wal"))
        f.daemon = try DaemonProcess(bus: f.bus, loop: f.loop, watcher: f.watcher,
                                     stateDirectory: f.daemon.stateDirectory)
        let names = try FileManager.default.contentsOfDirectory(atPath: f.daemon.stateDirectory.path)
        #expect(names.contains { $0.hasPrefix("history.sqlite3.corrupt-") }, "\(names)")
        #expect(f.daemon.logKeyCount("store.moved-aside") == 1, "\(f.daemon.log)")
        let app = try f.app("app.two", pushing: ["fresh"])
        #expect(try app.property("UndoDepth") == .uint32(1))
    }

    @Test func aSchemaOneStoreIsMigratedWithChecksumsAndChargedBytes() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Old")
        let path = app.stack
        _ = try app.call("PushGroup", [.string("Empty"), .array(element: "(ayay)", [.structure([.bytes([]), .bytes([])])]),
                                       .vardict([:])])
        try app.push("Typed", undo: [7, 7], redo: [8])
        app.quit()
        f.daemon.signal(SIGTERM)
        #expect(f.daemon.waitForExit(loop: f.loop) == 0)
        let file = f.daemon.stateDirectory.appendingPathComponent("history.sqlite3").path
        let sql = "ALTER TABLE groups DROP COLUMN charged; ALTER TABLE groups DROP COLUMN checksum; "
            + "ALTER TABLE groups DROP COLUMN file; ALTER TABLE stacks DROP COLUMN origin; PRAGMA user_version = 1;"
        let downgrade = try runTool(["/usr/bin/python3", "-c",
                                     "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.close()",
                                     file, sql], loop: f.loop)
        #expect(downgrade.status == 0, "\(downgrade.errors)")
        f.daemon = try DaemonProcess(bus: f.bus, loop: f.loop, watcher: f.watcher,
                                     stateDirectory: f.daemon.stateDirectory)
        let returned = try f.app()
        #expect(try returned.register("org.example.Old") == path)
        #expect(try returned.property("Bytes") == .uint64(32), "the empty action counts 16, the typed one 16")
        _ = try returned.call("Undo")
        #expect(returned.applied.first?.payloads == [[7, 7]])
        f.daemon.signal(SIGTERM)
        #expect(f.daemon.waitForExit(loop: f.loop) == 0)
        let schema = try runTool(["/usr/bin/python3", "-c",
                                  "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                                  + "print(c.execute('PRAGMA user_version').fetchone()[0], "
                                  + "c.execute('PRAGMA auto_vacuum').fetchone()[0], "
                                  + "c.execute('SELECT count(*) FROM groups WHERE checksum = 0 OR charged = 0').fetchone()[0])",
                                  file], loop: f.loop)
        #expect(schema.output == "5 2 0\n", "schema 5, incremental auto-vacuum, every group checked: \(schema.output)")
    }

    // MARK: Helpers

    /// Every regular file below `directory`.
    static func files(under directory: URL) throws -> [URL] {
        let names = try FileManager.default.subpathsOfDirectory(atPath: directory.path)
        return names.map { directory.appendingPathComponent($0) }.filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: $0.path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }

    /// The permission bits of `path`.
    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}
