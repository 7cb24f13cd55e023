import Testing
import UndoCore

@Suite("Global budget")
struct GlobalBudgetTests {
    typealias Candidate = GlobalBudget.Candidate<[UInt64]>

    /// A candidate whose bytes are all evictable.
    func stack(_ number: UInt64, active: Int64, _ sizes: [UInt64]) -> Candidate {
        Candidate(stack: number, bytes: sizes.reduce(0, +), lastActive: active, evictable: sizes)
    }

    @Test("nothing is cut while the total fits, exactly at the limit included")
    func fits() {
        let budget = GlobalBudget(maxTotalBytes: 10)
        #expect(budget.plan([stack(1, active: 0, [4, 6])]).isEmpty)
        #expect(budget.plan([Candidate]()).isEmpty)
    }

    @Test("the least recently active stack loses its oldest groups first")
    func leastRecentFirst() {
        let budget = GlobalBudget(maxTotalBytes: 15)
        let cuts = budget.plan([
            stack(1, active: 300, [5, 5]),
            stack(2, active: 100, [3, 3, 3]),
            stack(3, active: 200, [4, 4]),
        ])
        // Total 27, 12 over: stack 2 (9 bytes, all), then stack 3 (one group of 4).
        #expect(cuts == [
            GlobalBudget.Cut(stack: 2, groups: 3, bytes: 9),
            GlobalBudget.Cut(stack: 3, groups: 1, bytes: 4),
        ])
    }

    @Test("only as many groups as needed are cut")
    func minimal() {
        let cuts = GlobalBudget(maxTotalBytes: 10).plan([stack(1, active: 0, [1, 2, 3, 4, 5])])
        #expect(cuts == [GlobalBudget.Cut(stack: 1, groups: 3, bytes: 6)])
    }

    @Test("ties in activity go to the lower stack number first")
    func ties() {
        let cuts = GlobalBudget(maxTotalBytes: 4).plan([stack(9, active: 5, [4]), stack(2, active: 5, [4])])
        #expect(cuts == [GlobalBudget.Cut(stack: 2, groups: 1, bytes: 4)])
    }

    @Test("bytes that cannot be evicted (a group in flight) are counted but never cut")
    func inFlightNeverCut() {
        let busy = Candidate(stack: 1, bytes: 100, lastActive: 0, evictable: [10])
        let other = stack(2, active: 50, [20, 20])
        let cuts = GlobalBudget(maxTotalBytes: 80).plan([busy, other])
        #expect(cuts == [GlobalBudget.Cut(stack: 1, groups: 1, bytes: 10), GlobalBudget.Cut(stack: 2, groups: 2, bytes: 40)])
    }

    @Test("when nothing is enough, everything evictable is cut, and empty stacks are skipped")
    func notEnough() {
        let cuts = GlobalBudget(maxTotalBytes: 0).plan([
            Candidate(stack: 1, bytes: 7, lastActive: 0, evictable: []), stack(2, active: 1, [1, 2]),
        ])
        #expect(cuts == [GlobalBudget.Cut(stack: 2, groups: 2, bytes: 3)])
    }

    @Test("a plan applied to real stacks with dropOldest brings the total within budget")
    func withStacks() throws {
        var ids = GroupIDGenerator()
        var stacks = [UndoStack(settings: .exact), UndoStack(settings: .exact), UndoStack(settings: .exact)]
        for (index, sizes) in [[4, 4, 4], [6, 6], [2, 2, 2, 2]].enumerated() {
            for size in sizes { try stacks[index].push(name: "g", actions: [action(1, bytes: size)], now: 0, ids: &ids) }
        }
        _ = try stacks[1].beginUndo()
        let active: [Int64] = [30, 10, 20]
        let budget = GlobalBudget(maxTotalBytes: 15)
        let cuts = budget.plan(stacks.indices.map {
            GlobalBudget.Candidate(
                stack: UInt64($0), bytes: stacks[$0].bytes, lastActive: active[$0], evictable: stacks[$0].evictableGroupBytes)
        })
        for cut in cuts {
            let index = Int(cut.stack)
            let before = stacks[index].bytes
            #expect(stacks[index].dropOldest(cut.groups).count == cut.groups)
            #expect(before - stacks[index].bytes == cut.bytes)
        }
        #expect(stacks.reduce(0) { $0 + $1.bytes } <= 15)
        #expect(stacks[1].inFlight != nil)
        #expect(cuts.map(\.stack) == [1, 2, 0])
    }
}
