import BusHarness
import Caretaker
import DBus
import Foundation
import Testing
import UndoDaemon
import UndoStore

/// A store damaged on disk: payloads that fail their checksum never reach an
/// application; a 0-byte store is not taken for an empty one.
@Suite struct StoreDamageTests {
    /// A payload easy to find in the file, and its length.
    static func marked(_ byte: UInt8) -> [UInt8] {
        Array("UNDOD-MARK-".utf8) + [UInt8](repeating: byte, count: 3_000)
    }

    /// Stops undod cleanly, overwrites 16 bytes inside the first copy of
    /// `payload` in the store, and starts undod again on the same directory.
    static func damage(_ payload: [UInt8], in f: DaemonFixture) throws {
        f.daemon.signal(SIGTERM)
        #expect(f.daemon.waitForExit(loop: f.loop) == 0)
        let file = f.daemon.stateDirectory.appendingPathComponent("history.sqlite3")
        var bytes = try Data(contentsOf: file)
        let found = try #require(bytes.range(of: Data(payload)), "the payload is in the store's file")
        let start = found.lowerBound + 1_000
        let junk: [UInt8] = [0xDE, 0xAD, 0xBE, 0xEF, 0xDE, 0xAD, 0xBE, 0xEF, 0xDE, 0xAD, 0xBE, 0xEF, 0xDE, 0xAD, 0xBE, 0xEF]
        bytes.replaceSubrange(start..<(start + 16), with: junk)
        try bytes.write(to: file)
        f.daemon = try DaemonProcess(bus: f.bus, loop: f.loop, watcher: f.watcher,
                                     stateDirectory: f.daemon.stateDirectory)
    }

    @Test func aDamagedGroupIsNeverAppliedAndItAndTheGroupsBeyondItAreDropped() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Damaged")
        try app.push("Oldest", undo: [1], redo: [1])
        try app.push("Damaged", undo: Self.marked(0xAB), redo: [2])
        try app.push("Newest", undo: [3], redo: [3])
        let path = app.stack
        app.quit()
        try Self.damage(Self.marked(0xAB), in: f)

        let returned = try f.app()
        #expect(try returned.register("org.example.Damaged") == path)
        #expect(try returned.call("Undo") == [.uint64(3), .string("Newest")])
        let refused = errorOf { () throws(DBusError) in try returned.call("Undo") }
        #expect(refused?.name == undodError("StorageFailed"))
        #expect(refused?.message.contains("“Damaged”") == true && refused?.message.contains("1 older change") == true,
                "\(refused?.message ?? "")")
        #expect(returned.applied.count == 1, "the damaged payloads never reached the application")
        #expect(!returned.applied.flatMap(\.payloads).contains { $0.contains(0xDE) })
        #expect(try returned.property("UndoDepth") == .uint32(0))
        #expect(try returned.property("RedoDepth") == .uint32(1), "the redo side is untouched")
        #expect(f.daemon.logKeyCount("store.group-damaged", holding: "Damaged") == 1, "\(f.daemon.log)")
        #expect(errorOf { () throws(DBusError) in try returned.call("Undo") }?.name == undodError("NothingToUndo"),
                "the next undo goes on from what is left")
        _ = try returned.call("Redo")
        #expect(returned.applied.last?.payloads == [[3]])
    }

    @Test func aZeroByteStoreIsMovedAsideAsCorrupt() throws {
        let f = try DaemonFixture()
        _ = try f.app("app.one", pushing: ["1"])
        f.daemon.signal(SIGTERM)
        #expect(f.daemon.waitForExit(loop: f.loop) == 0)
        let directory = f.daemon.stateDirectory
        try Data().write(to: directory.appendingPathComponent("history.sqlite3"))
        try? FileManager.default.removeItem(at: directory.appendingPathComponent("history.sqlite3-wal"))
        f.daemon = try DaemonProcess(bus: f.bus, loop: f.loop, watcher: f.watcher, stateDirectory: directory)
        #expect(f.daemon.logKeyCount("store.moved-aside", holding: "0 bytes") == 1, "\(f.daemon.log)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.contains { $0.hasPrefix("history.sqlite3.corrupt-") }, "\(names)")
        let app = try f.app("app.two", pushing: ["fresh"])
        #expect(try app.property("UndoDepth") == .uint32(1))
    }
}

/// The store's files stay within twice `limits.max_total_bytes` plus 16 MiB,
/// also when a client pipelines big pushes faster than a turn commits them.
@Suite struct StoreSizeTests {
    /// At every budget, what the log may grow to before the loop waits for
    /// it and the freed space left for reuse leave room in the bound for the
    /// history itself, a batch of trimmed rows and 4 MiB of SQLite's own
    /// pages (with big budgets they grow, so stalls are rarer).
    @Test func theWALAndFreedSpaceLeaveRoomForTheHistory() {
        for budget: UInt64 in [0, 1 << 20, 4 << 20, 16 << 20, 48 << 20, 64 << 20, 256 << 20, 1 << 30, 1 << 40] {
            let bound = 2 * Int64(budget) + (16 << 20)
            let log = HistoryDatabase.walBytesBeforeWaiting(budget: budget)
            let slack = HistoryDatabase.reclaimSlack(budget: budget)
            let needed = Int64(budget) + log + slack + Int64(SQLiteHistoryStore.trimBytes) + (4 << 20)
            #expect(needed <= bound, "budget \(budget): log \(log), slack \(slack)")
            #expect(log >= 4 << 20 && slack >= 4 << 20, "budget \(budget)")
        }
        #expect(HistoryDatabase.walBytesBeforeWaiting(budget: 16 << 20) == 12 << 20)
        #expect(HistoryDatabase.walBytesBeforeWaiting(budget: 64 << 20) == 16 << 20)
        #expect(HistoryDatabase.reclaimSlack(budget: 64 << 20) == 16 << 20)
    }

    @Test func spaceFreedByDroppedGroupsIsGivenBack() throws {
        let f = try DaemonFixture(config: "[limits]\nmax_total_bytes = 4MiB\n")
        let app = try f.app("org.example.Flood")
        var answered = 0
        var failures: [String] = []
        let payload = DBusValue.bytes([UInt8](repeating: 0x5A, count: 1 << 20))
        // Four pushes in flight at a time, as a client waiting for its answers
        // keeps: a burst past what undod holds for one connection (8 MiB) is
        // answered Busy by design (`IncomingLanes`), which is not what this asks.
        var sent = 0
        func sendNext() throws {
            guard sent < 64 else { return }
            let message = try Message.methodCall(destination: "org.undod.Undo1", path: app.stack,
                                                 interface: "org.undod.Undo1.Stack", member: "Push",
                                                 arguments: [.string("Big \(sent)"), payload, .bytes([]), .vardict([:])])
            sent += 1
            app.connection.call(message, timeoutMilliseconds: TestTime.milliseconds(60_000)) { result in
                answered += 1
                if case .failure(let error) = result { failures.append(error.name) }
                try? sendNext()
            }
        }
        for _ in 0..<4 { try sendNext() }
        #expect(f.wait(timeout: 60_000) { answered == 64 })
        #expect(failures.isEmpty, "\(failures)")
        let directory = f.daemon.stateDirectory.path
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasPrefix("history.sqlite3") || $0.hasPrefix("history.journal") }
            .map { name in
                let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/" + name)
                return (name, (attributes[.size] as? NSNumber)?.intValue ?? 0)
            }
        let size = files.reduce(0) { $0 + $1.1 }
        #expect(size <= 2 * (4 << 20) + (16 << 20),
                "the store's files take \(size) bytes for a 4 MiB budget: \(files.map { "\($0.0) \($0.1)" })")
    }
}
