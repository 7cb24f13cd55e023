import BusHarness
import DBus
import Foundation
import Testing

/// The store meeting failures no in-process hook reaches, injected into a
/// real undod by strace on the calls that touch one of its files alone
/// (`FaultInjection`): SQLite's own calls (a disk that fails as the
/// database opens, one that cannot sync it) and a kill in the middle of
/// zeroing a history deleted for good; and one failure of undod's own
/// calls (a journal record the disk refuses), which the store's
/// in-process tests put in through `SystemCallFaults`
/// (`StoreTests.InjectedFaultTests`), as proof that the real binary
/// behaves as they say. Either way undod serves, and nothing answered is
/// lost. Where strace cannot trace, the suite is
/// skipped and says why.
@Suite(.enabled(if: FaultInjection.isAvailable, "needs strace, allowed to trace a child (ptrace)"))
struct StoreFaultTests {
    /// The journal's path in `f`'s state directory.
    static func journal(_ f: DaemonFixture) -> URL {
        f.daemon.stateDirectory.appendingPathComponent("history.journal")
    }

    /// The bytes of the store's files that a store only read must leave
    /// alone: the database, its log and the journal.
    static func storeFiles(_ f: DaemonFixture) -> [String: Data] {
        var files: [String: Data] = [:]
        for name in ["history.sqlite3", "history.sqlite3-wal", "history.journal"] {
            files[name] = try? Data(contentsOf: f.daemon.stateDirectory.appendingPathComponent(name))
        }
        return files
    }

    /// A stored stack (its path and history: "One", "Two"), whose app left;
    /// then undod stopped cleanly and started again under `wrapper`.
    static func storedStack(_ f: DaemonFixture, thenRestartUnder wrapper: [String]) throws
        -> (path: String, history: [DBusValue]) {
        let app = try f.app("org.example.Stored", pushing: ["One", "Two"])
        let history = try f.stack(app.stack, "History")
        app.quit()
        try f.restart(wrapper: wrapper)
        return (app.stack, history)
    }

    /// A disk that fails as the store opens (every `pread` of the database
    /// fails with EIO): undod serves all the same, with history in memory,
    /// and says why; the store is untouched, and the next undod reads it.
    @Test func aStoreTheDiskFailsToOpenLeavesUndodServingFromMemory() throws {
        let f = try DaemonFixture()
        let stored = try Self.storedStack(f, thenRestartUnder: FaultInjection.wrapper(touching: "@STATE@/history.sqlite3",
                                                                                      ["pread64:error=EIO"]))
        #expect(f.daemon.logKeyCount("store.read-only", holding: "disk I/O error") == 1, "\(f.daemon.log)")
        let other = try f.app("org.example.New", pushing: ["Fresh"])
        #expect(try other.property("Persistent") == .bool(false))
        #expect(try other.call("Undo").last == .string("Fresh"), "undo works from memory")
        try f.restart()
        #expect(try f.stack(stored.path, "History") == stored.history, "the store was left as it was")
    }

    /// One record the journal cannot take (its sixth `pwritev` fails with
    /// EIO): that push is refused with StorageFailed, naming the journal,
    /// and not made; the pushes after it are answered and kept, the log
    /// says when saving failed and when it works again, and a killed undod
    /// loses none of what it answered.
    @Test func aPushWhoseRecordCannotBeWrittenIsRefusedAndTheOnesAfterItAreKept() throws {
        let f = try DaemonFixture(wrapper: FaultInjection.wrapper(touching: "@STATE@/history.journal",
                                                                  ["pwritev:error=EIO:when=6"]))
        let app = try f.app("org.example.Failing")
        var kept: [DBusValue] = []
        var refused: [DBusError] = []
        for index in 0..<8 {
            do throws(DBusError) {
                try app.push("Edit \(index)")
                kept.insert(.string("Edit \(index)"), at: 0)
            } catch {
                refused.append(error)
            }
        }
        #expect(refused.count == 1 && refused.first?.name == undodError("StorageFailed"), "\(refused)")
        #expect(refused.first?.message.contains("history.journal: Input/output error") == true
                && refused.first?.message.contains("the change was not made") == true, "\(refused)")
        let names = { () throws(DBusError) -> [DBusValue] in
            (try f.stack(app.stack, "History").first?.elements ?? []).compactMap { $0.fields?[1] }
        }
        #expect(try names() == kept)
        #expect(f.daemon.logKeyCount("store.save-failed") >= 1 && f.daemon.logKeyCount("store.saves-again") >= 1,
                "\(f.daemon.log)")
        app.quit()
        try f.restart(crash: true)
        #expect(try names() == kept, "every answered push survived the kill")
    }

    /// A disk that cannot sync the database (every `fdatasync` of it fails
    /// with EIO, after it was made), so the log cannot be folded back into
    /// it: the log says
    /// so once, every push is answered, and a killed undod loses none of
    /// them (the log kept them).
    @Test func aWALThatCannotBeFoldedBackIsSaidAndLosesNothing() throws {
        let f = try DaemonFixture()
        _ = try Self.storedStack(f, thenRestartUnder: FaultInjection.wrapper(touching: "@STATE@/history.sqlite3",
                                                                             ["fdatasync:error=EIO"]))
        let app = try f.app("org.example.Growing")
        #expect(try app.property("Persistent") == .bool(true), "the store opened as it was: \(f.daemon.log)")
        // 3 MiB of pushes: a checkpoint is asked for every MiB the log grows.
        let payload = [UInt8](repeating: 7, count: 8 << 10)
        for index in 0..<384 { try app.push("Edit \(index)", undo: payload, redo: [1]) }
        #expect(f.waitForLogKey("store.fold-back-failed"), "\(f.daemon.log)")
        #expect(f.daemon.logKeyCount("store.fold-back-failed") == 1, "said once")
        let history = try f.stack(app.stack, "History")
        app.quit()
        try f.restart(crash: true)
        #expect(try f.stack(app.stack, "History") == history)
    }

    /// `Close(discard)` deletes a stack for good: SQLite takes the journal,
    /// then the journal's records (which hold that history) are zeroed,
    /// synced, and the journal starts over. undod killed at that sync: the
    /// zeros are written, so no copy of the history is left in the journal;
    /// the next undod finds a journal SQLite had taken already and applies
    /// nothing twice; every answered change of the other stack is there;
    /// and the close, never answered, did not happen: the stack is whole,
    /// and closed again it goes.
    @Test func undodKilledWhileZeroingAHistoryDeletedForGoodLosesNothingAnsweredAndLeavesNoCopyInTheJournal() throws {
        let marker = Array("a secret typed into undod's journal".utf8)
        let f = try DaemonFixture(wrapper: FaultInjection.wrapper(touching: "@STATE@/history.journal",
                                                                  ["fdatasync:signal=KILL"]))
        let kept = try f.app("org.example.Kept", pushing: ["One", "Two"])
        let keptHistory = try f.stack(kept.stack, "History")
        let secret = try f.app("org.example.Secret")
        let secretGroup = try secret.push("Secret", undo: marker, redo: marker)
        let journal = Self.journal(f)
        #expect(try Data(contentsOf: journal).range(of: Data(marker)) != nil, "the history waits in the journal")

        let close = errorOf { () throws(DBusError) in try secret.call("Close", [.bool(true)]) }
        #expect(close != nil, "undod was killed before it answered")
        _ = f.daemon.waitForExit(loop: f.loop)
        #expect(try Data(contentsOf: journal).range(of: Data(marker)) == nil, "the journal's records were zeroed")
        kept.quit()
        secret.quit()

        f.daemon = try DaemonProcess(bus: f.bus, loop: f.loop, watcher: f.watcher,
                                     stateDirectory: f.daemon.stateDirectory)
        #expect(f.daemon.logKeyCount("store.journal", holding: "were applied") == 0,
                "SQLite had taken the journal: \(f.daemon.log)")
        #expect(try f.stack(kept.stack, "History") == keptHistory)
        let returned = try f.app()
        #expect(try returned.register("org.example.Secret") == secret.stack)
        #expect(try returned.call("Undo") == [.uint64(secretGroup), .string("Secret")])
        #expect(returned.applied.first?.payloads == [marker])
        _ = try returned.call("Close", [.bool(true)])
        #expect(errorOf { () throws(DBusError) in try f.stack(secret.stack, "History") } != nil, "closed for good")
    }
}
