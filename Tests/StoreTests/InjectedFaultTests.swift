import Foundation
import SystemCalls
import Testing
import UndoCore
import UndoStore

/// The store meeting a disk that fails, put in its way in process by
/// `SystemCallFaults` on its own files alone (so the tests running beside
/// it meet nothing): a journal record that cannot be written, a journal
/// that cannot be read, a lock that cannot be made. What SQLite's own
/// calls meet, and a kill in the middle of a write, are put in a real
/// undod by strace instead (`DaemonTests.StoreFaultTests`), which also
/// shows that the binary behaves as these say.
@Suite struct InjectedFaultTests {
    /// Runs `body` with `fault` armed, disarmed after whatever happens.
    static func with<T>(_ fault: SystemCallFaults.Fault, _ body: () throws -> T) rethrows -> T {
        let armed = SystemCallFaults.arm(fault)
        defer { SystemCallFaults.disarm(armed) }
        return try body()
    }

    /// Every byte of the store's files, by name.
    static func files(_ directory: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for name in ["history.sqlite3", "history.sqlite3-wal", "history.journal"] {
            files[name] = FileManager.default.contents(atPath: directory + "/" + name)
        }
        return files
    }

    /// A record the disk refuses (EIO): that transaction is refused in
    /// words naming the journal, nothing of it stays, and the ones before
    /// and after it are kept, through a kill.
    @Test func aRecordThatCannotBeWrittenIsRefusedAndTheOthersAreKept() throws {
        try JournalTests.withDirectory { directory in
            let database = try JournalTests.reopen(directory) { database in
                try JournalTests.commit(database, groups: 1...1)
                try Self.with(.init(.pwrite, under: JournalTests.journal(directory), errno: .ioError, times: 1)) {
                    #expect {
                        try JournalFailureTests.saveGroup(2, in: database)
                    } throws: { error in
                        "\(error)".contains("history.journal: \(Errno.ioError)")
                    }
                }
                try JournalFailureTests.saveGroup(3, in: database)
            }
            #expect(try database.loadStacks().first?.undo.map(\.id) == [1, 3])
        }
    }

    /// A journal a killed store left that cannot be read (every `pread`
    /// fails): it may hold answered changes the database lacks, so the
    /// store is only read and its files are left byte for byte; readable
    /// again, it is applied and nothing is lost.
    @Test func aJournalThatCannotBeReadLeavesTheStoreOnlyRead() throws {
        try JournalTests.withDirectory { directory in
            do {
                let killed = try HistoryDatabase(directory: directory, now: 0)
                try JournalTests.commit(killed, groups: 1...2)
            }
            let left = Self.files(directory)
            #expect((left["history.journal"]?.count ?? 0) > 16, "the changes wait in the journal")
            try Self.with(.init(.pread, under: JournalTests.journal(directory), errno: .ioError)) {
                #expect {
                    _ = try JournalTests.openOnceLetGo(directory)
                } throws: { error in
                    (error as? StoreError)?.isReadOnly == true
                }
            }
            #expect(Self.files(directory) == left, "the journal and the database are left as they were")
            let database = try JournalTests.openOnceLetGo(directory)
            #expect(try database.loadStacks().first?.undo.map(\.id) == [1, 2])
        }
    }

    /// A state directory where the lock cannot be made (EACCES, as in a
    /// directory of mode 0500): the store is only read.
    @Test func aLockThatCannotBeMadeLeavesTheStoreOnlyRead() throws {
        try JournalTests.withDirectory { directory in
            do {
                let stopped = try HistoryDatabase(directory: directory, now: 0)
                try JournalTests.commit(stopped, groups: 1...1)
            }
            try Self.with(.init(.open, under: directory + "/lock", errno: .permissionDenied)) {
                #expect {
                    _ = try JournalTests.openOnceLetGo(directory)
                } throws: { error in
                    (error as? StoreError)?.isReadOnly == true
                }
            }
            #expect(try JournalTests.openOnceLetGo(directory).loadStacks().first?.undo.map(\.id) == [1])
        }
    }
}
