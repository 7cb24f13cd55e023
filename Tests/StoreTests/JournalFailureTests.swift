import Foundation
import Testing
import UndoCore
import UndoStore

/// The journal when the files refuse a write: made so with the file's own
/// attributes (`chattr +a`: append only, so it cannot start over; `+i` on
/// SQLite's log: SQLite cannot take the journal). Root on a file system
/// that keeps those attributes (ext4 here); elsewhere the suite is skipped
/// and says why.
@Suite(.enabled(if: FileAttributes.work,
                "needs root and a file system with `chattr +a`/`+i` (ext4) for the temporary directory"))
struct JournalFailureTests {
    static func saveGroup(_ id: UInt64, in database: HistoryDatabase) throws {
        try database.begin()
        try database.saveGroup(JournalTests.group(id), stack: 1, onRedoSide: false, actionsChanged: true)
        try database.commit()
    }

    /// A journal that cannot start over after SQLite took it takes no more
    /// records (one appended after a header SQLite took would be dropped
    /// as taken at the next open): transactions go to SQLite directly
    /// until it can, and then to the journal again.
    @Test func aJournalThatCannotStartOverTakesNoRecordsUntilItCan() throws {
        try JournalTests.withDirectory { directory in
            let journal = JournalTests.journal(directory)
            let database = try JournalTests.reopen(directory) { database in
                try JournalTests.commit(database, groups: 1...1)
                #expect(FileAttributes.chattr("+a", journal))
                defer { FileAttributes.chattr("-a", journal) }
                database.checkpoint()  // SQLite takes the journal; it cannot start over
                let taken = JournalTests.size(journal)
                try Self.saveGroup(2, in: database)
                #expect(JournalTests.size(journal) == taken, "the record went to SQLite, not after the taken ones")
                FileAttributes.chattr("-a", journal)
                try Self.saveGroup(3, in: database)
                #expect(JournalTests.size(journal) > 16 && JournalTests.size(journal) < taken,
                        "started over, it takes records again")
            }
            #expect(try database.loadStacks().first?.undo.map(\.id) == [1, 2, 3])
            #expect(database.journalNotes.map(\.text) == [
                "the journal's 1 transactions (1 changes) that had not reached the database were applied",
            ])
        }
    }

    /// A journal that does not go on top of the database and cannot be set
    /// aside (the directory append-only: no rename) is left as it is and
    /// the store only read: written around, it could come to match later.
    @Test func aJournalThatCannotBeSetAsideLeavesTheStoreOnlyRead() throws {
        try JournalTests.withDirectory { directory in
            let journal = JournalTests.journal(directory)
            do {
                let killed = try HistoryDatabase(directory: directory, now: 0)
                try JournalTests.commit(killed, groups: 1...2)
            }
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: journal)))
            bytes[8] = 7  // epoch 7 on a database that took none
            try Data(bytes).write(to: URL(fileURLWithPath: journal))
            #expect(FileAttributes.chattr("+a", directory))
            defer { FileAttributes.chattr("-a", directory) }
            #expect {
                _ = try JournalTests.openOnceLetGo(directory)
            } throws: { error in
                (error as? StoreError)?.isReadOnly == true && "\(error)".contains("cannot be set aside")
            }
            #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: journal))) == bytes, "left as it is")
        }
    }

    /// While SQLite cannot take the journal, commits still succeed, reads
    /// see everything, and SQLite is asked again only once twice as many
    /// records wait.
    @Test func whileSQLiteCannotTakeTheJournalReadsSeeItAndCommitsBackOff() throws {
        try JournalTests.withDirectory { directory in
            let database = try HistoryDatabase(directory: directory, now: 0)
            let log = database.path + "-wal"
            #expect(FileManager.default.fileExists(atPath: log))
            #expect(FileAttributes.chattr("+i", log))
            defer { FileAttributes.chattr("-i", log) }
            try JournalTests.commit(database, groups: 1...127)  // the 128th record: SQLite is asked and fails
            #expect(JournalTests.size(JournalTests.journal(directory)) > 16, "the journal keeps every record")
            #expect(try database.loadStack(1)?.undo.count == 127, "a read sees them all the same")
            FileAttributes.chattr("-i", log)
            // Asked again once twice the records (256) or bytes wait: the bytes may come a few records sooner.
            var id: UInt64 = 127
            while JournalTests.size(JournalTests.journal(directory)) > 16, id < 400 {
                id += 1
                try Self.saveGroup(id, in: database)
            }
            #expect((230...255).contains(id), "SQLite took the journal with group \(id), record \(id + 1)")
            #expect(try database.loadStack(1)?.undo.count == Int(id))
        }
    }
}

/// A file's attributes set with `chattr`, to make writes fail.
enum FileAttributes {
    /// Whether `chattr` can set and clear the append-only attribute here.
    static let work: Bool = {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("undod-chattr-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        guard FileManager.default.createFile(atPath: file, contents: nil) else { return false }
        return chattr("+a", file) && chattr("-a", file)
    }()

    /// Runs `chattr flag path`; whether it succeeded.
    @discardableResult
    static func chattr(_ flag: String, _ path: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [flag, path]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
