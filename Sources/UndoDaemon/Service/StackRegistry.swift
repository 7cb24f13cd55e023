import Undo1
package import UndoCore

/// Every stack the daemon holds, by number and by identity (app id and
/// document), with the counters that must never repeat. Confined to the loop.
package final class StackRegistry {
    /// The stacks by number.
    package private(set) var byNumber: [UInt64: StackRecord] = [:]
    private var byIdentity: [Identity: UInt64] = [:]
    /// The number the next new stack gets.
    package var nextNumber: UInt64 = 1
    /// Group ids, unique across all stacks.
    package var groupIDs = GroupIDGenerator()
    private var activityClock: UInt64 = 0

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

    /// The stacks `owner` owns.
    package func stacks(ownedBy owner: String) -> [StackRecord] {
        byNumber.values.filter { $0.owner == owner }.sorted { $0.number < $1.number }
    }

    /// Adds a stack; its number must be new.
    package func add(_ record: StackRecord) {
        byNumber[record.number] = record
        byIdentity[Identity(appId: record.appId, document: record.document)] = record.number
        nextNumber = max(nextNumber, record.number &+ 1)
    }

    /// Removes a stack.
    package func remove(_ record: StackRecord) {
        byNumber[record.number] = nil
        byIdentity[Identity(appId: record.appId, document: record.document)] = nil
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
    }

    /// All payload bytes held, both sides of every stack.
    package var totalBytes: UInt64 {
        byNumber.values.reduce(0) { total, record in
            let (sum, overflow) = total.addingReportingOverflow(record.stack.bytes)
            return overflow ? .max : sum
        }
    }

    /// The most recently active of the stacks a trigger may focus that
    /// satisfy `test`.
    func mostRecentlyActive(where test: (StackRecord) -> Bool) -> StackRecord? {
        var best: StackRecord?
        for record in byNumber.values where record.isFocusable && test(record) {
            if let known = best, known.activity >= record.activity { continue }
            best = record
        }
        return best
    }
}
