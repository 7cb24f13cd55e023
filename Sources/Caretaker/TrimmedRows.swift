/// The rows of groups trimmed off the bottom of their stacks (below the
/// base state, so a restart skips them), deleted in batches rather than
/// one with each push to a stack at its level limit: once `batch` rows
/// wait, or their payloads hold `bytesBeforeDeleting` (the files must give
/// space back), whichever comes first.
struct TrimmedRows {
    /// How many trimmed rows wait before they are deleted.
    static let batch = 128
    /// How many payload bytes trimmed rows may hold before they are
    /// deleted, however few they are.
    static let bytesBeforeDeleting: UInt64 = 4 << 20

    /// The rows waiting to be deleted.
    private(set) var waiting: Set<UInt64> = []
    /// The payload bytes the `waiting` rows hold, kept as they come and go:
    /// summing them at every commit cost a lookup per waiting row, on
    /// every push to a stack at its level limit.
    private var waitingBytes: UInt64 = 0
    /// The payload bytes of each group row on disk.
    private var rowBytes: [UInt64: UInt64] = [:]

    /// Group `id`'s row on disk now holds `bytes` of payloads.
    mutating func rowWritten(_ id: UInt64, bytes: UInt64) {
        rowBytes[id] = bytes
    }

    /// Group `id`'s row was deleted.
    mutating func rowDeleted(_ id: UInt64) {
        rowBytes[id] = nil
    }

    /// Notes `ids` as trimmed, waiting to be deleted, each counted once.
    mutating func add(_ ids: some Sequence<UInt64>) {
        for id in ids where waiting.insert(id).inserted { waitingBytes += rowBytes[id] ?? 0 }
    }

    /// The rows to delete now, with `newly` trimmed ones, when a batch is
    /// due; nil while they may wait.
    func due(with newly: [UInt64]) -> Set<UInt64>? {
        let fresh = newly.filter { !waiting.contains($0) }
        let bytes = fresh.reduce(waitingBytes) { $0 + (rowBytes[$1] ?? 0) }
        guard waiting.count + fresh.count >= Self.batch || bytes >= Self.bytesBeforeDeleting else { return nil }
        return waiting.union(fresh)
    }

    /// The rows `due(with: newly)` gave were deleted, by a commit.
    mutating func deleted(with newly: [UInt64]) {
        for id in waiting.union(newly) { rowBytes[id] = nil }
        waiting.removeAll()
        waitingBytes = 0
    }

    /// Every waiting row was deleted (on the way out).
    mutating func deletedAll() {
        waiting.removeAll()
        waitingBytes = 0
    }
}
