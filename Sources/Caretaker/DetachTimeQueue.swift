/// The detach times waiting to be written, handed out in batches lowest
/// stack number first (`StackNumberQueue`): 10,000 stacks detached at once
/// made every commit that wrote 256 of them in hash order rewrite nearly a
/// page of the stacks table a row.
struct DetachTimeQueue {
    /// Each waiting stack's detach time.
    private var times: [UInt64: Int64] = [:]
    private var order = StackNumberQueue()

    /// Whether nothing waits.
    var isEmpty: Bool { times.isEmpty }

    /// Queues (or moves) stack `number`'s detach time.
    mutating func set(_ since: Int64, for number: UInt64) {
        if times.updateValue(since, forKey: number) == nil { order.append(number) }
    }

    /// Stack `number`'s detach time no longer waits.
    mutating func remove(_ number: UInt64) {
        times[number] = nil
    }

    /// Up to `limit` waiting detach times, lowest number first; they wait
    /// until `written` says their transaction committed.
    mutating func batch(atMost limit: Int) -> [(number: UInt64, since: Int64)] {
        guard !times.isEmpty else { return [] }
        let times = self.times
        return order.first(limit) { times[$0] != nil }.map { (number: $0, since: times[$0] ?? 0) }
    }

    /// The transaction that wrote `batch` committed.
    mutating func written(_ batch: [(number: UInt64, since: Int64)]) {
        for entry in batch where times[entry.number] == entry.since { times[entry.number] = nil }
        if times.isEmpty { order.removeAll() }
    }
}
