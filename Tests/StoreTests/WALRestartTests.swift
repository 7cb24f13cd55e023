import Foundation
import Locking
import Testing
import UndoCore
import UndoStore

/// A long write-ahead log is made to start over by the checkpointer, which
/// tells the loop when it may go on with large writes. (SQLite's own log:
/// these stores write to SQLite directly, with no journal in front.) The
/// loop is told through the push's preparation (`PushPreparation`).
@Suite struct WALRestartTests {
    /// The log's checkpoint sequence number (bytes 12–15 of its header,
    /// big-endian): SQLite adds one each time the log starts over.
    static func logSequence(_ path: String) -> UInt32? {
        guard let handle = FileHandle(forReadingAtPath: path + "-wal") else { return nil }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 16), header.count == 16 else { return nil }
        return header[12..<16].reduce(0) { $0 << 8 | UInt32($1) }
    }

    @Test func aLongWALIsMadeToStartOverAndTheLoopIsToldWhen() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("undod-log-restart-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let database = try HistoryDatabase(directory: directory, now: 0, journaled: false)
        // Budget 0: the log asks to start over at 2 MiB, the loop waits at 4 MiB.
        database.budget = 0
        #expect(HistoryDatabase.walBytesBeforeRestart(budget: 0) == 2 << 20)
        let told = Lock(0)
        let wake = DispatchSemaphore(value: 0)
        database.whenCaughtUp {
            told.withLock { $0 += 1 }
            wake.signal()
        }
        try database.begin()
        try database.saveStack(StackRow(number: 1, appId: "org.example.Big", document: "", title: "", requestedLevels: 0,
                                        requestedMaxBytes: 0, globalTrigger: true, detachedSince: nil, baseStateID: 0,
                                        baseStateTag: "", clean: .state(0), topIsMergeable: false))
        try database.commit()
        let before = Self.logSequence(database.path)
        // 3 MiB in one commit: past the 2 MiB, short of the 4 MiB.
        let payload = [UInt8](repeating: 0xA5, count: 3 << 20)
        try database.begin()
        try database.saveGroup(ActionGroup(id: 1, name: "Big", actions: [Action(undo: payload, redo: [])], time: 0),
                               stack: 1, onRedoSide: false, actionsChanged: true)
        try database.commit()
        #expect(wake.wait(timeout: .now() + 10) == .success, "the checkpointer never said it was done")
        #expect(told.withLock { $0 } == 1)
        #expect(!database.isCatchingUp)
        // The next commit starts the log over.
        try database.begin()
        try database.deleteGroup(1)
        try database.commit()
        let after = Self.logSequence(database.path)
        #expect(before != nil && after != nil && after != before, "log sequence \(String(describing: before)) → \(String(describing: after))")
    }

    /// A stream of small commits asks for a checkpoint once a MiB of log,
    /// not at every commit past the first MiB (then passes ran back to
    /// back, each syncing both files for a few frames, and every push
    /// waited on that disk traffic).
    @Test func aStreamOfSmallCommitsAsksForACheckpointOnceAMegabyte() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("undod-log-requests-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let database = try HistoryDatabase(directory: directory, now: 0, journaled: false)
        database.budget = 1 << 30
        let stack = StackRow(number: 1, appId: "org.example.Notes", document: "", title: "", requestedLevels: 0,
                             requestedMaxBytes: 0, globalTrigger: true, detachedSince: nil, baseStateID: 0,
                             baseStateTag: "", clean: .state(0), topIsMergeable: false)
        try database.begin()
        try database.saveStack(stack)
        try database.commit()
        // Each commit writes two pages to the log (the group's and the stack's):
        // 3,000 of them are about 6,000 pages, 23 MiB.
        let commits = 3_000
        for id in 1...commits {
            try database.begin()
            try database.saveStack(stack)
            try database.saveGroup(ActionGroup(id: UInt64(id), name: "Typing", actions: [Action(undo: [1], redo: [2])],
                                               time: Int64(id)),
                                   stack: 1, onRedoSide: false, actionsChanged: true)
            try database.commit()
        }
        let megabytes = commits * 2 / 256
        #expect(database.checkpointsAsked >= 1, "a long log asks for a checkpoint")
        #expect(database.checkpointsAsked <= 2 * megabytes,
                "\(database.checkpointsAsked) requests for \(megabytes) MiB of log (a request a commit would be \(commits))")
    }
}
