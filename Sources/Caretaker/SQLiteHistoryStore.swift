package import UndoCore
package import UndoStore

/// The durable store: `HistoryDatabase` (SQLite) under the daemon's
/// `HistoryStore` interface. Changes collect per stack during a loop turn and
/// are written in one transaction at its end; a group is written as it is at
/// commit time, so a push and an undo in the same turn cost one write.
package final class SQLiteHistoryStore: HistoryStore {
    private let database: HistoryDatabase
    /// Stacks with changes to write: the record and each group, with whether
    /// its actions changed.
    private var dirty: [UInt64: (record: StackRecord, groups: [UInt64: Bool])] = [:]
    /// Stacks to delete from disk.
    private var removed: Set<UInt64> = []
    /// Stacks whose rows are on disk, as last written.
    private var onDisk: [UInt64: StackRow] = [:]

    /// Whether stack `number` has a row on disk, asked without copying the row.
    private func isOnDisk(_ number: UInt64) -> Bool { onDisk.index(forKey: number) != nil }
    /// The counters on disk: group ids below its own may be handed out
    /// without a write; its stack number is the next one to hand out.
    private var reserved = StoreCounters(nextStackNumber: 0, nextGroupID: 0)
    /// Groups trimmed off the bottom of their stacks, whose rows are
    /// deleted in batches.
    private var trimmed = TrimmedRows()
    /// How many payload bytes trimmed rows may hold before they are
    /// deleted, however few they are (`TrimmedRows`).
    package static let trimBytes = TrimmedRows.bytesBeforeDeleting
    /// Stacks whose only change to write is when they were detached: no
    /// answer waits for it, so a few hundred go with each commit rather than
    /// 10,000 in one when a client that owned them leaves. (Lost in a crash,
    /// a stack's detached time is the restart's.) Any other change of the
    /// stack writes its whole row, this with it; an adoption is never put
    /// off. Lowest numbers first: a batch of neighbours shares pages.
    private var detachTimes = DetachTimeQueue()
    /// How many detach times one commit writes at most.
    static let detachTimesPerCommit = 256
    /// How far ahead of use group ids are reserved (stack numbers are not).
    static let reserveGroups: UInt64 = 4_096
    /// The groups on disk whose actions are in payload files, each with its
    /// stack's number and its file's name (`PayloadFiles`).
    private var fileGroups: [UInt64: (stack: UInt64, file: String)] = [:]
    /// Payload files written ahead for groups pushed since the last
    /// commit, which their rows will name.
    private var adopting: [UInt64: PayloadFile] = [:]

    /// A store over an opened database.
    package init(database: HistoryDatabase) {
        self.database = database
    }

    /// Where a corrupt store was moved, and why, if that happened.
    package var recovery: (movedTo: String, reason: String)? {
        guard let moved = database.movedAside else { return nil }
        return (moved, database.corruption ?? "it could not be read")
    }

    /// What opening the store found in its journal, each with whether it
    /// says that changes were lost.
    package var journalNotes: [(text: String, lost: Bool)] { database.journalNotes }

    /// Whether large writes should wait: the log is being made to start
    /// over (`HistoryDatabase.isCatchingUp`).
    package var isCatchingUp: Bool { database.isCatchingUp }

    /// Calls `body`, on another thread, whenever `isCatchingUp` may have
    /// turned false.
    package func whenCaughtUp(_ body: @escaping @Sendable () -> Void) {
        database.whenCaughtUp(body)
    }

    /// Calls `body`, on another thread, when the store's log cannot be
    /// folded back into the database (with why), and when it can again (nil).
    package func whenFoldingBackFails(_ body: @escaping @Sendable (String?) -> Void) {
        database.whenFoldingBackFails(body)
    }

    package func budgetChanged(to bytes: UInt64) {
        database.budget = bytes
    }

    /// Loads every stack; a store that turns out corrupt while reading is
    /// moved aside and a fresh, empty one used (see `recovery`).
    package func load(settings: ServiceSettings, now: Int64) throws(StoreError) -> (stacks: [StackRecord], counters: StoreCounters) {
        do {
            return try loadAll(settings: settings, now: now)
        } catch where error.isCorruption {
            try database.startFresh(now: now, because: error.description)
            onDisk.removeAll()
            return try loadAll(settings: settings, now: now)
        }
    }

    private func loadAll(settings: ServiceSettings, now: Int64) throws(StoreError) -> (stacks: [StackRecord], counters: StoreCounters) {
        let counters = try database.loadCounters()
        reserved = StoreCounters(nextStackNumber: counters.nextStack, nextGroupID: counters.nextGroup)
        var records: [StackRecord] = []
        for var stored in try database.loadStacks() {
            let row = stored.row
            for group in stored.undo + stored.redo { trimmed.rowWritten(group.id, bytes: group.bytes) }
            trimmed.add(stored.skipTrimmed())
            let record = try StackRestorer.record(restoring: stored, persistent: true, settings: settings, now: now)
            onDisk[row.number] = row
            records.append(record)
        }
        // Once the store has proved readable: files no row names are removed.
        fileGroups = try database.loadFileGroups()
        if database.keepsPayloadFiles { database.payloadFiles.sweep(keeping: Set(fileGroups.values.map(\.file))) }
        return (records, StoreCounters(nextStackNumber: counters.nextStack, nextGroupID: counters.nextGroup))
    }

    package func storedHistory(of record: StackRecord, settings: StackSettings) throws(StoreError) -> UndoStack {
        guard var stored = try database.loadStack(record.number) else { return UndoStack(settings: settings) }
        trimmed.add(stored.skipTrimmed())
        var stack = try StackRestorer.restore(stored, mergeWindow: settings.mergeWindowMilliseconds)
        _ = try? stack.setSettings(settings)
        return stack
    }

    package func stackChanged(_ record: StackRecord, groups: [GroupChange]) {
        guard record.persistent else {
            // Leaving the disk (the service loaded every action first). A
            // memory-only stack's every change comes here: empty tables are
            // not hashed into.
            if !onDisk.isEmpty, isOnDisk(record.number) { removed.insert(record.number) }
            if !dirty.isEmpty { dirty[record.number] = nil }
            return
        }
        if removed.contains(record.number) {
            // Back on the disk before its removal was written: the removal
            // stays (it runs first in the commit), and everything is written anew.
            onDisk[record.number] = nil
        }
        var entry = dirty[record.number] ?? (record, [:])
        entry.record = record
        if !isOnDisk(record.number) {
            // New on disk: every group, every action.
            let snapshot = record.stack.snapshot
            for group in snapshot.undo + snapshot.redo { entry.groups[group.id] = true }
        }
        for change in groups {
            entry.groups[change.id] = (entry.groups[change.id] ?? false) || change.actionsChanged
        }
        dirty[record.number] = entry
    }

    /// Only the detach time changed: queued with the others, written a few
    /// hundred a commit, without building the stack's row (a stack new to
    /// the disk, or already changed this turn, is written whole).
    package func detachTimeChanged(_ record: StackRecord) {
        let number = record.number
        guard record.persistent, let since = record.detachedSince, !record.isAttached, isOnDisk(number),
              dirty[number] == nil, !removed.contains(number) else {
            return stackChanged(record, groups: [])
        }
        detachTimes.set(since, for: number)
    }

    package func stackRemoved(number: UInt64) {
        dirty[number] = nil
        detachTimes.remove(number)
        if isOnDisk(number) { removed.insert(number) }
    }

    package func loadActions(ofTop side: Direction, in record: StackRecord) throws(StoreError) {
        // Asked before every push and move: the usual answer costs no copy of the group.
        guard !record.stack.topIsLoaded(side),
              let group = side == .undo ? record.stack.topUndoGroup : record.stack.topRedoGroup else { return }
        try StackRestorer.load(group, into: record, from: database)
    }

    package func loadAllActions(of record: StackRecord) throws(StoreError) {
        let snapshot = record.stack.snapshot
        for group in snapshot.undo + snapshot.redo where !group.isLoaded {
            try StackRestorer.load(group, into: record, from: database)
        }
    }

    package func writeAhead(_ actions: EncodedActions, then: @escaping @Sendable (PayloadFile?) -> Void) -> Bool {
        guard database.keepsPayloadFiles else { return false }
        database.payloadFiles.write(actions, then: then)
        return true
    }

    package func adopt(_ file: PayloadFile, forGroup id: UInt64) {
        adopting[id] = file
    }

    package func isSavedAsIs(_ number: UInt64) -> Bool {
        isOnDisk(number) && dirty[number] == nil && !removed.contains(number)
    }

    package func needsCommit(counters: StoreCounters) -> Bool {
        !dirty.isEmpty || !removed.isEmpty || !detachTimes.isEmpty || !hasReserved(counters)
    }

    package func hasReserved(_ counters: StoreCounters) -> Bool {
        counters.nextStackNumber <= reserved.nextStackNumber && counters.nextGroupID < reserved.nextGroupID
    }

    package func commit(counters: StoreCounters) throws(StoreError) {
        guard needsCommit(counters: counters) else { return }
        // Group ids are reserved ahead, in one write once half the
        // reservation is used: not with every push. Stack numbers, which
        // people type, are written exactly, with the Register that hands one
        // out, so that after a restart they go on from the last one (dense)
        // and none is ever handed out twice.
        let running = counters.nextGroupID &+ Self.reserveGroups / 2 > reserved.nextGroupID
        let reserving = StoreCounters(
            nextStackNumber: max(reserved.nextStackNumber, counters.nextStackNumber),
            nextGroupID: running ? max(reserved.nextGroupID, counters.nextGroupID &+ Self.reserveGroups)
                                 : reserved.nextGroupID)
        // A stack's history deleted for good is zeroed; groups that age out are not.
        database.zeroDeletedContent(!removed.isEmpty)
        try database.begin()
        var written: [UInt64: StackRow] = [:]
        var detachesWritten: [(number: UInt64, since: Int64)] = []
        var newlyTrimmed: [UInt64] = []
        var flushed = false
        var deleted = !removed.isEmpty
        // Payload files whose rows this commit deletes or replaces, removed
        // once it is committed; those of stacks deleted for good are zeroed.
        var filesDropped: [UInt64] = []
        let filesZeroed = removed.isEmpty ? [] : fileGroups.filter { removed.contains($0.value.stack) }.map(\.key)
        // Files this commit's rows name: kept, and known, once it commits.
        var adopted: [(id: UInt64, stack: UInt64, file: PayloadFile)] = []
        defer { adopting.removeAll() }
        do throws(StoreError) {
            for number in removed { try database.deleteStack(number) }
            for (number, entry) in dirty {
                let record = entry.record
                let row = Self.row(of: record)
                if let old = onDisk[number], old.differsOnlyInDetachedSince(from: row) {
                    try database.saveDetachedSince(row.detachedSince, ofStack: number)
                } else if let old = onDisk[number], old != row, old.differsOnlyInHistoryState(from: row) {
                    try database.saveHistoryState(of: row)
                } else if onDisk[number] != row {
                    try database.saveStack(row)
                }
                written[number] = row
                detachTimes.remove(number)  // the row carries it
                for (id, actionsChanged) in entry.groups {
                    if let found = record.stack.group(withID: id) {
                        // Only a group whose actions are in memory has its row rewritten with them
                        // (one taken back after a failed commit is not: its row and file stay).
                        let rewrites = actionsChanged && found.group.isLoaded
                        let file = rewrites ? adoptFile(of: found.group) : nil
                        if let file { adopted.append((id, number, file)) }
                        if rewrites, fileGroups[id] != nil { filesDropped.append(id) }
                        try database.saveGroup(found.group, stack: number, onRedoSide: found.side == .redo,
                                               actionsChanged: actionsChanged, file: file)
                        if actionsChanged { trimmed.rowWritten(id, bytes: found.group.bytes) }
                    } else if id <= record.stack.baseStateID {
                        // Below the bottom: a restart skips it; delete later, in a batch
                        // (128 rows, or 4 MiB of payloads).
                        newlyTrimmed.append(id)
                    } else {
                        try database.deleteGroup(id)
                        if fileGroups[id] != nil { filesDropped.append(id) }
                        trimmed.rowDeleted(id)
                        deleted = true
                    }
                }
            }
            detachesWritten = try writeDetachTimes(atMost: Self.detachTimesPerCommit)
            if let due = trimmed.due(with: newlyTrimmed) {
                for id in due {
                    try database.deleteGroup(id)
                    if fileGroups[id] != nil { filesDropped.append(id) }
                }
                flushed = true
                deleted = true
            }
            if reserving != reserved {
                try database.saveCounters(nextStack: reserving.nextStackNumber, nextGroup: reserving.nextGroupID)
            }
            try database.commit()
        } catch {
            database.rollback()
            throw error
        }
        dropFiles(filesDropped, zeroing: false)
        for entry in adopted {
            entry.file.keep()
            fileGroups[entry.id] = (entry.stack, entry.file.name)
        }
        dropFiles(filesZeroed, zeroing: true)
        if flushed {
            trimmed.deleted(with: newlyTrimmed)
        } else {
            trimmed.add(newlyTrimmed)
        }
        if !removed.isEmpty { database.checkpoint() }
        // Space deleted groups freed goes back once it is more than the slack.
        if deleted { database.reclaim() }
        for number in removed { onDisk[number] = nil }
        onDisk.merge(written) { $1 }
        wrote(detachesWritten)
        removed.removeAll()
        dirty.removeAll()
        reserved = reserving
    }

    /// The payload file written ahead for `group`, when one was and it
    /// still holds exactly the group's actions (a merge in the same turn
    /// makes the group larger: its row then holds them all). Kept only if
    /// the commit succeeds; else removed when dropped (the group, if it
    /// stays, is written with its actions in its row by the next commit).
    private func adoptFile(of group: ActionGroup) -> PayloadFile? {
        guard let file = adopting.removeValue(forKey: group.id),
              file.actions.buffer.count == group.encodedActions.count else { return nil }
        return file
    }

    /// Removes the payload files of groups whose rows a commit deleted or
    /// rewrote, on the files' own thread.
    private func dropFiles(_ ids: [UInt64], zeroing: Bool) {
        let names = ids.compactMap { fileGroups.removeValue(forKey: $0)?.file }
        // Never through a `payloads` that is not our own directory (a link).
        if database.keepsPayloadFiles { database.payloadFiles.remove(names, zeroing: zeroing) }
    }

    /// Writes up to `limit` of the detach times waiting, lowest stack
    /// number first; returns them, to be marked written once the
    /// transaction commits.
    private func writeDetachTimes(atMost limit: Int) throws(StoreError) -> [(number: UInt64, since: Int64)] {
        let batch = detachTimes.batch(atMost: limit)
        for entry in batch { try database.saveDetachedSince(entry.since, ofStack: entry.number) }
        return batch
    }

    /// Marks detach times written by a transaction that committed.
    private func wrote(_ batch: [(number: UInt64, since: Int64)]) {
        detachTimes.written(batch)
        for entry in batch { onDisk[entry.number]?.detachedSince = entry.since }
    }

    /// Deletes what trimming left, writes the detach times still waiting,
    /// has SQLite take the journal (and removes its file), folds the
    /// write-ahead log into the database file and empties it.
    package func close() {
        if !trimmed.waiting.isEmpty || !detachTimes.isEmpty, (try? database.begin()) != nil {
            do throws(StoreError) {
                let done = try writeDetachTimes(atMost: .max)
                for id in trimmed.waiting { try database.deleteGroup(id) }
                try database.commit()
                dropFiles(Array(trimmed.waiting), zeroing: false)
                wrote(done)
                trimmed.deletedAll()
            } catch {
                database.rollback()
            }
        }
        database.checkpoint()
        database.removeJournal()
        database.payloadFiles.drain()
    }

    /// A record's row as the database keeps it.
    private static func row(of record: StackRecord) -> StackRow {
        StackRow(
            number: record.number, appId: record.appId, document: record.document, title: record.title,
            requestedLevels: record.requestedLevels, requestedMaxBytes: record.requestedMaxBytes,
            globalTrigger: record.globalTrigger, detachedSince: record.isAttached ? nil : record.detachedSince,
            baseStateID: record.stack.baseStateID, baseStateTag: record.stack.baseStateTag,
            clean: record.stack.cleanState, topIsMergeable: record.stack.topIsMergeable,
            origin: record.origin?.key ?? "")
    }
}
