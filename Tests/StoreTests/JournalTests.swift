import Foundation
import Testing
import UndoCore
import UndoStore

/// The journal in front of SQLite: what a killed store left in it is
/// applied at the next open, a damaged end is left out and said so, a
/// journal that does not follow the database is never applied, and every
/// read sees what it holds.
@Suite struct JournalTests {
    static let stack = StackRow(number: 1, appId: "org.example.Notes", document: "", title: "", requestedLevels: 0,
                                requestedMaxBytes: 0, globalTrigger: true, detachedSince: nil, baseStateID: 0,
                                baseStateTag: "", clean: .state(0), topIsMergeable: false)

    /// A fresh state directory, removed when `body` returns.
    static func withDirectory(_ body: (String) throws -> Void) rethrows {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("undod-journal-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(directory)
    }

    static func group(_ id: UInt64) -> ActionGroup {
        ActionGroup(id: id, name: "Typing \(id)", actions: [Action(undo: [UInt8(id), 1], redo: [2])], time: Int64(id))
    }

    /// The stack in one transaction, then each of `groups` in one of its own.
    static func commit(_ database: HistoryDatabase, groups: ClosedRange<UInt64>) throws {
        try database.begin()
        try database.saveStack(stack)
        try database.commit()
        for id in groups {
            try database.begin()
            try database.saveGroup(group(id), stack: 1, onRedoSide: false, actionsChanged: true)
            try database.commit()
        }
    }

    static func journal(_ directory: String) -> String { directory + "/history.journal" }

    static func size(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1
    }

    /// Opens the store as a killed daemon left it: `write` has made its
    /// transactions and the store is dropped without a close.
    /// With `deletingDatabase`, the database's files are deleted before
    /// (the journal is left), as a person clearing the history might.
    static func reopen(_ directory: String, deletingDatabase: Bool = false,
                       after write: (HistoryDatabase) throws -> Void) throws -> HistoryDatabase {
        var path = ""
        do {
            let killed = try HistoryDatabase(directory: directory, now: 0)
            try write(killed)
            path = killed.path
        }
        if deletingDatabase {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        return try openOnceLetGo(directory)
    }

    /// Opens the store in `directory` once a store dropped just before has
    /// let its lock go: its checkpointer's thread lets the store go under
    /// load a moment later (at most 10 s, times `UNDOD_TEST_TIME_SCALE`
    /// for a sanitized build). Any other error is thrown at once.
    static func openOnceLetGo(_ directory: String) throws(StoreError) -> HistoryDatabase {
        let scale = ProcessInfo.processInfo.environment["UNDOD_TEST_TIME_SCALE"].flatMap(Double.init) ?? 1
        let deadline = Date().addingTimeInterval(10 * max(1, scale))
        var opened = Result { () throws(StoreError) in try HistoryDatabase(directory: directory, now: 0) }
        while case .failure(let error) = opened, error.description.contains("already running"), Date() < deadline {
            usleep(10_000)
            opened = Result { () throws(StoreError) in try HistoryDatabase(directory: directory, now: 0) }
        }
        return try opened.get()
    }

    @Test func whatAKilledStoreLeftInItsJournalIsAppliedAtTheNextOpen() throws {
        try Self.withDirectory { directory in
            let database = try Self.reopen(directory) { database in
                try Self.commit(database, groups: 1...3)
                #expect(Self.size(Self.journal(directory)) > 16, "the transactions wait in the journal")
            }
            #expect(database.journalNotes.map(\.text) == [
                "the journal's 4 transactions (4 changes) that had not reached the database were applied",
            ])
            #expect(database.journalNotes.allSatisfy { !$0.lost })
            #expect(Self.size(Self.journal(directory)) == 16, "and it started over once they were")
            #expect(try database.loadStacks().map(\.undo) == [[1, 2, 3].map { Self.group($0).unloadedCopy }])
            #expect(try database.encodedActions(ofGroup: 2) == Self.group(2).encodedActions)
        }
    }

    @Test func aRecordCutShortIsLeftOutAndTheRecordsBeforeItAreKept() throws {
        try Self.withDirectory { directory in
            let database = try Self.reopen(directory) { database in
                try Self.commit(database, groups: 1...2)
                let handle = try #require(FileHandle(forWritingAtPath: Self.journal(directory)))
                try handle.seekToEnd()
                try handle.write(contentsOf: [64, 0, 0, 0, 1, 2, 3, 4, 9, 9])  // 64 bytes said, 2 written
                try handle.close()
            }
            #expect(try database.loadStacks().first?.undo.map(\.id) == [1, 2])
            #expect(database.journalNotes.contains { $0.lost && $0.text.contains("last 10 bytes are not a whole record") },
                    "\(database.journalNotes)")
        }
    }

    @Test func aDamagedRecordEndsTheJournal() throws {
        try Self.withDirectory { directory in
            let database = try Self.reopen(directory) { database in
                try Self.commit(database, groups: 1...3)
                var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.journal(directory))))
                bytes[bytes.count - 5] ^= 0xFF  // inside the last record's body
                try Data(bytes).write(to: URL(fileURLWithPath: Self.journal(directory)))
            }
            #expect(try database.loadStacks().first?.undo.map(\.id) == [1, 2])
            #expect(database.journalNotes.contains { $0.lost }, "\(database.journalNotes)")
        }
    }

    @Test func aJournalTheDatabaseTookAlreadyIsNotAppliedAgain() throws {
        try Self.withDirectory { directory in
            var taken = Data()
            let database = try Self.reopen(directory) { database in
                try Self.commit(database, groups: 1...1)
                taken = try Data(contentsOf: URL(fileURLWithPath: Self.journal(directory)))
                database.checkpoint()  // SQLite takes the journal
                try database.begin()
                try database.deleteGroup(1)
                try database.commit()
                database.checkpoint()
                // As if the journal had not started over after SQLite took it.
                try taken.write(to: URL(fileURLWithPath: Self.journal(directory)))
            }
            #expect(try database.loadStacks().first?.undo == [], "group 1 stays deleted")
            #expect(database.journalNotes.isEmpty, "\(database.journalNotes)")
        }
    }

    @Test func aJournalThatFollowsChangesTheDatabaseNeverGotIsSetAside() throws {
        try Self.withDirectory { directory in
            let database = try Self.reopen(directory) { database in
                try Self.commit(database, groups: 1...2)
                var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.journal(directory))))
                bytes[8] = 7  // epoch 7 on a database that took none
                try Data(bytes).write(to: URL(fileURLWithPath: Self.journal(directory)))
            }
            #expect(try database.loadStacks().isEmpty, "nothing of it is applied")
            #expect(Self.size(Self.journal(directory) + ".set-aside-0") > 16, "it is kept for a person to look at")
            #expect(Self.size(Self.journal(directory)) == 16)
            #expect(database.journalNotes.contains { $0.lost && $0.text.contains("set aside") }, "\(database.journalNotes)")
        }
    }

    @Test func aJournalLeftBesideADatabaseMadeAnewIsSetAside() throws {
        try Self.withDirectory { directory in
            let database = try Self.reopen(directory, deletingDatabase: true) { database in
                try Self.commit(database, groups: 1...2)
            }
            #expect(try database.loadStacks().isEmpty, "none of it is applied to the new database")
            #expect(Self.size(Self.journal(directory) + ".set-aside-0") > 16)
            #expect(database.journalNotes.contains { $0.lost && $0.text.contains("the database is new") },
                    "\(database.journalNotes)")
        }
    }

    @Test func anEmptyJournalBesideADatabaseMadeAnewStartsOverQuietly() throws {
        try Self.withDirectory { directory in
            let database = try Self.reopen(directory, deletingDatabase: true) { database in
                try Self.commit(database, groups: 1...2)
                database.checkpoint()  // as a clean stop leaves it: SQLite has taken everything
            }
            #expect(database.journalNotes.isEmpty, "nothing was lost: \(database.journalNotes)")
            #expect(Self.size(Self.journal(directory)) == 16)
            #expect(Self.size(Self.journal(directory) + ".set-aside-0") == -1)
        }
    }

    @Test func aJournalThatCannotBeOpenedLeavesTheStoreOnlyRead() throws {
        try Self.withDirectory { directory in
            do {
                let killed = try HistoryDatabase(directory: directory, now: 0)
                try Self.commit(killed, groups: 1...2)
            }
            let kept = Self.journal(directory) + ".kept"
            try FileManager.default.moveItem(atPath: Self.journal(directory), toPath: kept)
            try FileManager.default.createSymbolicLink(atPath: Self.journal(directory), withDestinationPath: kept)
            #expect {
                _ = try Self.openOnceLetGo(directory)
            } throws: { error in
                (error as? StoreError)?.isReadOnly == true
            }
            let read = try #require(try HistoryDatabase(readingOnly: directory))
            #expect(try read.loadStacks().isEmpty, "the link is never followed")
            #expect(read.journalNotes.contains { $0.lost }, "\(read.journalNotes)")
            #expect(Self.size(kept) > 16, "and what it points to is left as it is")
        }
    }

    @Test func aNewStoresSchemaIsInTheFileAtOnce() throws {
        try Self.withDirectory { directory in
            let database = try HistoryDatabase(directory: directory, now: 0)
            let file = try #require(FileHandle(forReadingAtPath: database.path))
            let header = try #require(try file.read(upToCount: 64))
            #expect(header.count == 64 && header[60..<64].reduce(0) { $0 << 8 | Int($1) } == 5,
                    "an older undod reads the version from the header, not from the log")
        }
    }

    @Test func sqliteTakesTheJournalEvery128Transactions() throws {
        try Self.withDirectory { directory in
            let database = try HistoryDatabase(directory: directory, now: 0)
            try Self.commit(database, groups: 1...126)
            #expect(Self.size(Self.journal(directory)) > 16, "127 transactions wait")
            try database.begin()
            try database.saveGroup(Self.group(127), stack: 1, onRedoSide: false, actionsChanged: true)
            try database.commit()
            #expect(Self.size(Self.journal(directory)) == 16, "the 128th has SQLite take them all")
        }
    }

    @Test func aReadSeesWhatTheJournalHolds() throws {
        try Self.withDirectory { directory in
            let database = try HistoryDatabase(directory: directory, now: 0)
            try Self.commit(database, groups: 1...2)
            try database.begin()
            try database.saveGroup(Self.group(2), stack: 1, onRedoSide: true, actionsChanged: false)
            try database.commit()
            let stored = try #require(try database.loadStack(1))
            #expect(stored.undo.map(\.id) == [1] && stored.redo.map(\.id) == [2])
            #expect(Self.size(Self.journal(directory)) == 16, "the read had SQLite take the journal first")
        }
    }

    @Test func aTransactionThatZeroesGoesToSQLiteAfterTheJournal() throws {
        try Self.withDirectory { directory in
            let database = try HistoryDatabase(directory: directory, now: 0)
            try Self.commit(database, groups: 1...2)
            database.zeroDeletedContent(true)
            try database.begin()
            #expect(Self.size(Self.journal(directory)) == 16, "what waited is in SQLite before it begins")
            try database.deleteStack(1)
            try database.commit()
            #expect(Self.size(Self.journal(directory)) == 16)
            #expect(try database.loadStacks().isEmpty)
        }
    }

    @Test func everyChangeComesBackFromItsRecordAsItWasWritten() {
        let row = StackRow(number: 9, appId: "org.example.Zürich", document: "/tmp/ß.txt", title: "", requestedLevels: 100,
                           requestedMaxBytes: .max, globalTrigger: false, detachedSince: -5, baseStateID: 3,
                           baseStateTag: "t", clean: .unreachable, topIsMergeable: true,
                           origin: "executable /usr/bin/python3.11 2049:17 /home/ann/my%20notes.py 2049:99")
        let changes: [HistoryChange] = [
            .stack(row),
            .stack(StackRow(number: 1, appId: "a", document: "", title: "T", requestedLevels: 0, requestedMaxBytes: 0,
                            globalTrigger: true, detachedSince: nil, baseStateID: 0, baseStateTag: "",
                            clean: .state(.max), topIsMergeable: false)),
            .detachedSince(stack: 9, since: nil),
            .detachedSince(stack: 9, since: .min),
            .historyState(stack: 9, baseID: 4, baseTag: "b", clean: .state(4), topMergeable: false),
            .group(GroupRow(id: 5, stack: 9, redo: true, name: "Größer", time: -1, mergeKey: "k", stateTag: "",
                            bytes: 3, charged: 19, payload: [0, 255, 7], checksum: .max, file: "")),
            .group(GroupRow(id: 6, stack: 9, redo: false, name: "Large", time: 1, mergeKey: "", stateTag: "s",
                            bytes: 1 << 30, charged: 1 << 30, payload: [], checksum: 1, file: "6-abc")),
            .groupMoved(id: 5, redo: false, name: "n", time: 42, stateTag: "t"),
            .stackDeleted(.max),
            .groupDeleted(0),
            .counters(nextStack: 10, nextGroup: 4_096),
        ]
        var body: [UInt8] = []
        for change in changes { change.encode(into: &body) }
        #expect(HistoryChange.decodeAll(body) == changes)
        #expect(HistoryChange.decodeAll(Array(body.dropLast())) == nil, "a field cut short")
        #expect(HistoryChange.decodeAll(body + [0]) == nil, "an unknown kind")
        #expect(HistoryChange.decodeAll([]) == [])
        // A row as an undod before schema 5 wrote it (kind 1: no origin) reads back with none.
        var plain = row
        plain.origin = ""
        var written: [UInt8] = []
        HistoryChange.stack(plain).encode(into: &written)
        #expect(written.first == 9 && written.suffix(4) == [0, 0, 0, 0])
        #expect(HistoryChange.decodeAll([1] + written.dropFirst().dropLast(4)) == [.stack(plain)])
    }
}

extension ActionGroup {
    /// The group as a store reads it back: its actions left on disk.
    var unloadedCopy: ActionGroup {
        ActionGroup.unloaded(id: id, name: name, time: time, mergeKey: mergeKey, stateTag: stateTag, bytes: bytes,
                             chargedBytes: chargedBytes)
    }
}
