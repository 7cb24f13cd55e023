/// Stack numbers waiting for some work, handed out lowest first. Neighbouring
/// numbers are neighbouring rows of the store's stacks table: a batch taken
/// in order rewrites a few of its pages, where one in hash order rewrote
/// nearly a page a stack. An entry may stop waiting without being taken
/// out; whoever takes says which still wait.
///
/// Numbers queued since the last look are sorted alone and merged in, so a
/// client leaving with 250 stacks while 10,000 wait costs a sort of 250 and
/// one pass over the rest, and asks of none of the others whether it waits
/// (sorting everything again, asking each, took 5-10 ms of a turn).
struct StackNumberQueue {
    /// The queued numbers, ascending and each once, from `head` on.
    private var numbers: [UInt64] = []
    private var head = 0
    /// Numbers queued since the last look, as they came.
    private var incoming: [UInt64] = []

    /// Queues `number` (once is enough: a number queued twice is handed out once).
    mutating func append(_ number: UInt64) {
        incoming.append(number)
    }

    /// Queues each of `numbers`.
    mutating func append(contentsOf numbers: some Sequence<UInt64>) {
        incoming.append(contentsOf: numbers)
    }

    /// Up to `limit` of the queued numbers that still wait, lowest first,
    /// each once. They stay queued: once they no longer wait, the next call
    /// drops them.
    mutating func first(_ limit: Int, where waits: (UInt64) -> Bool) -> [UInt64] {
        mergeIncoming()
        while head < numbers.count, !waits(numbers[head]) { head += 1 }
        if head == numbers.count {
            removeAll()
            return []
        }
        if head > 4_096, head * 2 > numbers.count {
            numbers.removeFirst(head)
            head = 0
        }
        var batch: [UInt64] = []
        var index = head
        while batch.count < limit, index < numbers.count {
            let number = numbers[index]
            index += 1
            if waits(number) { batch.append(number) }
        }
        return batch
    }

    /// Forgets every number.
    mutating func removeAll() {
        numbers.removeAll(keepingCapacity: numbers.count <= 4_096)
        incoming.removeAll(keepingCapacity: incoming.count <= 4_096)
        head = 0
    }

    /// Sorts what came since the last look and merges it into the queue.
    private mutating func mergeIncoming() {
        guard !incoming.isEmpty else { return }
        incoming.sort()
        defer { incoming.removeAll(keepingCapacity: incoming.count <= 4_096) }
        if head == numbers.count {
            numbers.removeAll(keepingCapacity: true)
            head = 0
        }
        if let last = numbers.last, let first = incoming.first, last >= first {
            numbers = Self.merged(numbers[head...], incoming)
            head = 0
        } else {
            // In order after what is queued (detach times mostly come so).
            for number in incoming where number != numbers.last { numbers.append(number) }
        }
    }

    /// The ascending numbers of `a` and `b` (each ascending), each once.
    private static func merged(_ a: ArraySlice<UInt64>, _ b: [UInt64]) -> [UInt64] {
        var result: [UInt64] = []
        result.reserveCapacity(a.count + b.count)
        var i = a.startIndex
        var j = b.startIndex
        while i < a.endIndex || j < b.endIndex {
            let next: UInt64
            if j == b.endIndex || i < a.endIndex && a[i] <= b[j] {
                next = a[i]
                i += 1
            } else {
                next = b[j]
                j += 1
            }
            if next != result.last { result.append(next) }
        }
        return result
    }
}
