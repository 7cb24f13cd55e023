import Undo1
package import UndoCore

/// Every stack the daemon holds, by number, by identity (app id and
/// document) and by owner, in order of activity, with the counters that must
/// never repeat. Every lookup a call makes costs the same with ten stacks or
/// ten thousand: a departing owner detaches its stacks in one step, the most
/// recently active one is found without a scan. Confined to the loop.
package final class StackRegistry {
    /// The stacks by number.
    package private(set) var byNumber: [UInt64: StackRecord] = [:]
    private var byIdentity: [Identity: UInt64] = [:]
    /// The connected owners, by unique name.
    private var owners: [String: StackOwner] = [:]
    /// Stacks in the order they were last active, oldest first; an entry is
    /// current while its `activity` is the record's.
    private var recency: [(activity: UInt64, number: UInt64)] = []
    /// The number the next new stack gets.
    var nextNumber: UInt64 = 1
    /// Group ids, unique across all stacks.
    var groupIDs = GroupIDGenerator()
    private var activityClock: UInt64 = 0
    /// The sum of every stack's bytes as last counted (`countBytes`; each
    /// record keeps its own count).
    private var countedTotal: UInt64 = 0

    /// What makes a stack: an app and one of its documents.
    struct Identity: Hashable {
        let appId: String
        let document: String
    }

    /// An empty registry.
    package init() {}

    /// The stack with that identity, if any.
    package func stack(appId: String, document: String) -> StackRecord? {
        byIdentity[Identity(appId: appId, document: document)].flatMap { byNumber[$0] }
    }

    /// The stack at an object path, if any.
    package func stack(atPath path: String) -> StackRecord? {
        StackPath(path).flatMap { byNumber[$0.number] }
    }

    /// Every stack, by number.
    package var all: [StackRecord] { byNumber.keys.sorted().compactMap { byNumber[$0] } }

    /// How many stacks `owner` owns.
    package func count(ownedBy owner: String) -> Int {
        owners[owner]?.stacks.count ?? 0
    }

    /// `name` left the bus at `time`: every stack it owned is detached now,
    /// in one step whatever their number (each record asks its owner). The
    /// owner is returned, with the numbers of its stacks, to catch up with.
    package func ownerLeft(_ name: String, at time: Int64) -> StackOwner? {
        guard let owner = owners.removeValue(forKey: name) else { return nil }
        owner.leftAt = time
        return owner
    }

    /// Gives `record` to `owner` (`""`: detached); with `ownerLeft`, the one
    /// way an owner changes.
    package func setOwner(_ owner: String, of record: StackRecord) {
        unindexOwner(of: record)
        guard !owner.isEmpty else { return }
        let ownership = owners[owner] ?? StackOwner(name: owner)
        owners[owner] = ownership
        ownership.stacks.insert(record.number)
        record.ownership = ownership
    }

    /// Adds a stack, owned by `owner` (`""`: detached); its number must be new.
    package func add(_ record: StackRecord, owner: String = "") {
        byNumber[record.number] = record
        byIdentity[Identity(appId: record.appId, document: record.document)] = record.number
        setOwner(owner, of: record)
        nextNumber = max(nextNumber, record.number &+ 1)
        record.countedBytes = 0
        countBytes(of: record)
    }

    /// Removes a stack.
    package func remove(_ record: StackRecord) {
        byNumber[record.number] = nil
        byIdentity[Identity(appId: record.appId, document: record.document)] = nil
        unindexOwner(of: record)
        countedTotal = countedTotal &- (record.countedBytes ?? 0)
        record.countedBytes = nil
    }

    /// Takes `record` from its owner; an owner that left keeps the numbers
    /// it had, for the records still to catch up.
    private func unindexOwner(of record: StackRecord) {
        defer { record.ownership = nil }
        guard let ownership = record.ownership, ownership.leftAt == nil else { return }
        ownership.stacks.remove(record.number)
        if ownership.stacks.isEmpty { owners[ownership.name] = nil }
    }

    /// Takes the number for a new stack.
    package func takeNumber() -> UInt64 {
        defer { nextNumber &+= 1 }
        return nextNumber
    }

    /// Marks `record` as the most recently active stack.
    package func markActive(_ record: StackRecord) {
        activityClock += 1
        record.activity = activityClock
        recency.append((activityClock, record.number))
        // Entries a later activity replaced are dropped once they are half.
        if recency.count > 2 * byNumber.count + 64 {
            recency.removeAll { byNumber[$0.number]?.activity != $0.activity }
        }
    }

    /// All bytes held, both sides of every stack, as the limits count them:
    /// kept as a sum, so that a push does not look at every stack. The
    /// service counts a stack again whenever it changes (`countBytes`).
    package var totalBytes: UInt64 {
        assert(countedTotal == recountedBytes, "a stack changed without being counted again")
        return countedTotal
    }

    /// Counts `record`'s bytes again after a change.
    package func countBytes(of record: StackRecord) {
        guard let old = record.countedBytes else { return }
        let new = record.stack.bytes
        record.countedBytes = new
        countedTotal = countedTotal &- old &+ new
    }

    /// The sum counted from scratch (debug builds check the kept one with it).
    private var recountedBytes: UInt64 {
        byNumber.values.reduce(0) { $0 &+ $1.stack.bytes }
    }

    /// The most recently active of the stacks a trigger may focus that
    /// satisfy `test`.
    ///
    /// Walks back from the most recent. The newest entries that are stale or
    /// cannot be focused are dropped on the way: a stack becomes focusable
    /// again only by a `Register`, which makes it active anew.
    package func mostRecentlyActive(where test: (StackRecord) -> Bool) -> StackRecord? {
        var index = recency.count - 1
        var trailing = true
        while index >= 0 {
            let entry = recency[index]
            let record = byNumber[entry.number]
            if let record, record.activity == entry.activity, record.isFocusable {
                if test(record) { return record }
                trailing = false
            } else if trailing {
                recency.removeLast()
            }
            index -= 1
        }
        return nil
    }
}
