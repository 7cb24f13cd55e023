/// Stack numbers waiting for some work, handed out lowest first. Neighbouring
/// numbers are neighbouring rows of the store's stacks table: a batch taken
/// in order rewrites a few of its pages, where one in hash order rewrote
/// nearly a page a stack. An entry may stop waiting without being taken
/// out; whoever takes says which still wait.
struct StackNumberQueue {
    private var numbers: [UInt64] = []
    private var head = 0
    private var isSorted = true

    /// Queues `number` (once is enough: a number queued twice is handed out once).
    mutating func append(_ number: UInt64) {
        if let last = numbers.last, last > number { isSorted = false }
        numbers.append(number)
    }

    /// Queues each of `numbers`.
    mutating func append(contentsOf numbers: some Sequence<UInt64>) {
        for number in numbers { append(number) }
    }

    /// Up to `limit` of the queued numbers that still wait, lowest first,
    /// each once. They stay queued: once they no longer wait, the next call
    /// drops them.
    mutating func first(_ limit: Int, where waits: (UInt64) -> Bool) -> [UInt64] {
        if !isSorted { sort(keeping: waits) }
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
            if number != batch.last, waits(number) { batch.append(number) }
        }
        return batch
    }

    /// Forgets every number.
    mutating func removeAll() {
        numbers.removeAll(keepingCapacity: numbers.count <= 4_096)
        head = 0
        isSorted = true
    }

    private mutating func sort(keeping waits: (UInt64) -> Bool) {
        var waiting = numbers[head...].filter(waits)
        waiting.sort()
        numbers.removeAll(keepingCapacity: true)
        for number in waiting where number != numbers.last { numbers.append(number) }
        head = 0
        isSorted = true
    }
}
