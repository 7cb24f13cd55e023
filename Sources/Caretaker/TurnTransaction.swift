import Loop
import Logging
import Undo1
import UndoCore
import UndoStore

/// One loop turn as a transaction. Every change the turn makes is written
/// with one commit at its end; a reply that reports a change waits for that
/// commit, and the turn's announcements leave after the replies. When the
/// commit fails, the turn's changes to persistent stacks are taken back
/// (except undos and redos the owner already applied: its document moved),
/// what was announced of them is withdrawn, and their callers are told.
final class TurnTransaction {
    /// What a reply reports, which decides when it leaves and its fate if
    /// the turn's commit fails.
    enum Durability {
        /// A change to the history (push, set-clean, clear): on a failed
        /// commit it is taken back and the caller gets `StorageFailed`.
        case change(StackRecord)
        /// An undo or redo the owner already applied: on a failed commit it
        /// stays in memory and the caller gets `StorageFailed` saying so.
        case applied(StackRecord)
        /// Anything else: answered as it is, written with the next commit.
        case bookkeeping
    }

    /// Where a stack's history as it was before this turn can be found.
    enum Backup {
        /// On disk: the store held it exactly, so nothing was copied.
        case onDisk
        /// In this copy, taken before the turn's first change.
        case copy(UndoStack)
    }

    /// A reply waiting for the turn's commit.
    private struct HeldReply {
        let durability: Durability
        let send: () -> Void
        let fail: (ServiceError) -> Void
    }

    private let store: any HistoryStore
    private let log: Log
    private var held: [HeldReply] = []
    /// Whether anything was held, backed up, applied or queued since the
    /// last turn ended with all of it empty: a turn that finds it false
    /// ends without looking at each (every look at a property of this
    /// class is an exclusivity check).
    private var touched = false
    /// Each persistent stack as it was before this turn's first change to it.
    private var backups: [UInt64: Backup] = [:]
    /// What each stack in `backups` had announced when the turn began.
    private var startAnnounced: [UInt64: StackProperties?] = [:]
    /// Stacks on which an undo or redo was committed this turn.
    private var appliedThisTurn: Set<UInt64> = []
    /// Announcements for the end of the turn; those with a stack number
    /// announce a change that a failed commit may take back.
    private var queued: [(takenBackWith: UInt64?, announcement: Announcement)] = []
    /// The store's last failure, so that a lasting one is logged once.
    private(set) var lastFailure: String?

    /// A turn's transaction committing to `store`.
    init(store: any HistoryStore, log: Log) {
        self.store = store
        self.log = log
    }

    /// Notes that `record`'s history changes this turn, so that a failed
    /// commit can put it back. While the store saves, what is on disk is
    /// exactly the history before this turn, so nothing is copied (a copy
    /// costs the whole stack); once it has failed, memory may be ahead of
    /// the disk, so the history is copied first.
    func willChange(_ record: StackRecord) {
        guard record.persistent, record.stack.inFlight == nil, backups[record.number] == nil else { return }
        touched = true
        backups[record.number] = lastFailure == nil && store.isSavedAsIs(record.number) ? .onDisk : .copy(record.stack)
        startAnnounced[record.number] = record.announced
    }

    /// Notes an undo or redo the owner applied on `record` this turn.
    func noteApplied(_ record: StackRecord) {
        // Only a stored stack's change is ever taken back (`takeBack`).
        guard record.persistent else { return }
        touched = true
        appliedThisTurn.insert(record.number)
    }

    /// Queues `announcement` for the end of the turn, after the replies.
    /// With `unlessTakenBack`, it is dropped if a failed commit takes back
    /// this turn's change to that stack.
    func queue(_ announcement: Announcement, unlessTakenBack record: StackRecord? = nil) {
        touched = true
        queued.append((record?.number, announcement))
    }

    /// Whether a reply of this durability must wait for the end of the
    /// turn's commit (`hold`), or may leave now: a memory-only stack waits
    /// only for its new ids to be reserved.
    func mustHold(_ durability: Durability, counters: StoreCounters) -> Bool {
        switch durability {
        case .change(let record) where !record.persistent, .applied(let record) where !record.persistent:
            !store.hasReserved(counters)
        default:
            store.needsCommit(counters: counters)
        }
    }

    /// Holds a reply until the turn's commit: `send` once it is stored,
    /// else `fail` (or `send`, as `durability` says).
    func hold(_ durability: Durability, send: @escaping () -> Void, fail: @escaping (ServiceError) -> Void) {
        touched = true
        held.append(HeldReply(durability: durability, send: send, fail: fail))
    }

    /// Whether ids up to `counters` may be handed out: while the store
    /// cannot write, only those it has reserved on disk (after a crash one
    /// could be handed out again). Throws `StorageFailed` otherwise.
    func requireReserved(_ counters: StoreCounters) throws(ServiceError) {
        guard let lastFailure else { return }
        guard store.hasReserved(counters) else { throw .storageFailed(lastFailure) }
    }

    /// Writes everything pending now (at the end of each turn, and on the way out).
    func save(counters: StoreCounters) throws(StoreError) {
        try store.commit(counters: counters)
    }

    /// Ends the turn: commits, then sends the replies and the announcements;
    /// on a failed commit, takes back what `host` allows first.
    func end(_ host: any TurnHost) {
        // Most turns of a memory-only history (an Apply sent, a reply read)
        // have nothing to write, send or take back.
        if !touched, lastFailure == nil, !store.needsCommit(counters: host.counters) {
            return
        }
        var failure: StoreError?
        do {
            try save(counters: host.counters)
            if let lastFailure { log.notice(.savesAgain, "The history store saves again (it failed with: \(lastFailure)).") }
            lastFailure = nil
        } catch {
            failure = error
            if lastFailure != error.description { log.error(.saveFailed, "The history store could not save: \(error).") }
            lastFailure = error.description
        }
        let replies = held
        let turnBackups = backups
        held.removeAll()
        backups.removeAll()
        defer {
            if !startAnnounced.isEmpty { startAnnounced.removeAll() }
            // Kept for the next turn while small: an undo a turn would
            // otherwise make a set each time.
            if !appliedThisTurn.isEmpty { appliedThisTurn.removeAll(keepingCapacity: appliedThisTurn.count <= 64) }
            // Announcements made while sending are sent too, in order.
            while !queued.isEmpty {
                let batch = queued
                queued.removeAll()
                for entry in batch { host.send(entry.announcement) }
            }
            // What sending held or backed up waits for the next turn's end.
            touched = !(held.isEmpty && backups.isEmpty && startAnnounced.isEmpty && appliedThisTurn.isEmpty)
        }
        guard let failure else {
            for reply in replies { reply.send() }
            return
        }
        let reverted = takeBack(turnBackups, host)
        // What was announced of the taken-back changes is withdrawn; each
        // reverted stack announces what differs from the turn's start.
        queued.removeAll { entry in entry.takenBackWith.map(reverted.contains) ?? false }
        for number in reverted {
            guard let record = host.record(number) else { continue }
            record.announced = startAnnounced[number] ?? record.announced
            host.announce(record)
        }
        for reply in replies {
            switch reply.durability {
            case .change(let record) where reverted.contains(record.number):
                reply.fail(.storageFailed(failure.description))
            case .change(let record) where !record.persistent, .applied(let record) where !record.persistent:
                reply.send()
            case .change, .applied:
                reply.fail(.notSaved(failure.description))
            case .bookkeeping:
                reply.send()
            }
        }
        host.turnTakenBack()
    }

    /// Takes back this turn's changes, except on stacks whose owner applied
    /// an undo or redo this turn or has one out now: their document moved
    /// (or may), so memory must stay with it. Returns the stacks taken back.
    private func takeBack(_ turnBackups: [UInt64: Backup], _ host: any TurnHost) -> Set<UInt64> {
        var reverted: Set<UInt64> = []
        for (number, backup) in turnBackups where !appliedThisTurn.contains(number) {
            guard let record = host.record(number), record.persistent, record.stack.inFlight == nil,
                  !record.applies.isApplying else { continue }
            switch backup {
            case .copy(let stack):
                host.restore(record, to: stack)
            case .onDisk:
                do {
                    host.restore(record, to: try store.storedHistory(of: record, settings: host.settings(of: record)))
                } catch {
                    log.error(.readBackFailed, "\(record.displayName): cannot read back its saved history: \(error)")
                    continue
                }
            }
            reverted.insert(number)
        }
        return reverted
    }
}
