@testable import Caretaker
import Testing

/// The queues that hand out stack numbers lowest first: the departed stacks
/// still to catch up, and the detach times still to write.
@Suite struct StackNumberQueueTests {
    @Test func numbersComeLowestFirstEachOnceAndOnlyWhileTheyWait() {
        var queue = StackNumberQueue()
        var waiting: Set<UInt64> = [9, 3, 7, 1, 5, 2]
        queue.append(contentsOf: [9, 3, 7])
        queue.append(contentsOf: [1, 5, 3, 2])
        #expect(queue.first(4) { waiting.contains($0) } == [1, 2, 3, 5])
        #expect(queue.first(4) { waiting.contains($0) } == [1, 2, 3, 5], "nothing is taken out by looking")
        waiting.subtract([1, 2, 5])
        #expect(queue.first(4) { waiting.contains($0) } == [3, 7, 9])
        queue.append(4)
        waiting.insert(4)
        #expect(queue.first(2) { waiting.contains($0) } == [3, 4], "a number queued later takes its place in order")
        waiting.removeAll()
        #expect(queue.first(4) { waiting.contains($0) }.isEmpty)
        waiting.insert(9)
        #expect(queue.first(4) { waiting.contains($0) }.isEmpty, "a queue found empty forgets what it held")
    }

    @Test func aLongQueueDrainsInOrderInBatches() {
        var queue = StackNumberQueue()
        let numbers = (1...10_000).map(UInt64.init)
        var waiting = Set(numbers)
        queue.append(contentsOf: numbers.shuffled())
        var drained: [UInt64] = []
        while true {
            let batch = queue.first(64) { waiting.contains($0) }
            if batch.isEmpty { break }
            drained += batch
            waiting.subtract(batch)
        }
        #expect(drained == numbers)
    }

    @Test func numbersQueuedWhileManyWaitCostALookAtTheBatchOnly() {
        var queue = StackNumberQueue()
        var waiting = Set((1...10_000).map { UInt64($0) * 2 })
        queue.append(contentsOf: waiting.shuffled())
        var asked = 0
        let first = queue.first(64) { asked += 1; return waiting.contains($0) }
        #expect(first == (1...64).map { UInt64($0) * 2 } && asked <= 65)
        waiting.subtract(first)
        // Another owner leaves: its numbers fall between the waiting ones.
        let more = (1...250).map { UInt64($0) * 2 + 1 }
        waiting.formUnion(more)
        queue.append(contentsOf: more.shuffled())
        asked = 0
        let next = queue.first(64) { asked += 1; return waiting.contains($0) }
        #expect(next == (1...64).map { UInt64($0) * 2 + 1 }, "they take their places in order")
        #expect(asked <= 64 + 64 + 1, "only the settled batch and this one are asked about, not all 10,000 (asked \(asked))")
    }

    @Test func detachTimesWaitUntilTheirTransactionCommits() {
        var times = DetachTimeQueue()
        for number in [40, 10, 30, 20] as [UInt64] { times.set(Int64(number) * 100, for: number) }
        times.set(1, for: 30)
        let batch = times.batch(atMost: 3)
        #expect(batch.map(\.number) == [10, 20, 30] && batch.map(\.since) == [1_000, 2_000, 1])
        #expect(times.batch(atMost: 3).map(\.number) == [10, 20, 30], "a rolled-back batch is written again")
        times.written(batch)
        times.remove(40)
        #expect(times.isEmpty)
        times.set(5, for: 7)
        #expect(times.batch(atMost: 3).map(\.number) == [7])
    }
}
