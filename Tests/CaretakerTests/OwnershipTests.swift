import Caretaker
import Testing
import Undo1
import UndoCore

/// What one connection may own, and what its leaving costs: the per-client
/// cap (`limits.stacks_per_client`, `TooManyStacks`) and detaching in time
/// proportional to what the connection owned.
@Suite struct OwnershipTests {
    static func capped(_ cap: UInt32) throws -> ServiceFixture {
        var settings = ServiceSettings()
        settings.stacksPerClient = cap
        return try ServiceFixture(settings: settings)
    }

    static func document(_ name: String) -> RegistrationOptions {
        RegistrationOptions(document: name)
    }

    @Test func oneMoreStackThanTheCapIsRefusedAndNothingChanges() throws {
        let f = try Self.capped(3)
        for name in ["a", "b", "c"] { _ = try f.register("org.example.Notes", options: Self.document(name)) }
        let numbers = Set(f.service.registry.byNumber.keys)
        f.publisher.clear()
        #expect(throws: ServiceError.tooManyStacks(limit: 3)) {
            try f.register("org.example.Notes", options: Self.document("d"))
        }
        #expect(Set(f.service.registry.byNumber.keys) == numbers)
        #expect(f.publisher.announcements.isEmpty)
        let refusal = ServiceError.tooManyStacks(limit: 3).refusal(stack: nil)
        #expect(refusal.name == .tooManyStacks)
        #expect(refusal.sentence.contains("3 stacks") && refusal.sentence.contains("limits.stacks_per_client"))
    }

    @Test func registeringAStackItOwnsAgainIsNotOneMore() throws {
        let f = try Self.capped(2)
        _ = try f.register("org.example.Notes", options: Self.document("a"))
        let b = try f.register("org.example.Notes", options: Self.document("b"))
        #expect(try f.register("org.example.Notes", options: RegistrationOptions(document: "b", title: "B")) === b)
        #expect(b.title == "B")
    }

    @Test func eachConnectionHasACapOfItsOwnAndAdoptingCounts() throws {
        let f = try Self.capped(1)
        _ = try f.register("org.example.Notes")
        let other = try f.register("org.example.Paint", caller: ":1.2")
        f.service.peerLeft(":1.2")
        #expect(!other.isAttached)
        #expect(throws: ServiceError.tooManyStacks(limit: 1)) { try f.register("org.example.Paint") }
        #expect(!other.isAttached, "the refused adoption left the stack detached")
        #expect(try f.register("org.example.Paint", caller: ":1.3") === other)
    }

    @Test func aStackClosedOrLeftMakesRoom() throws {
        let f = try Self.capped(1)
        _ = try f.register("org.example.Notes", caller: ":1.5")
        f.service.peerLeft(":1.5")
        _ = try f.register("org.example.Paint", caller: ":1.5")
    }

    @Test func zeroMeansNoCap() throws {
        let f = try Self.capped(0)
        for index in 0..<300 { _ = try f.register("org.example.Notes", options: Self.document("\(index)")) }
        #expect(f.service.registry.count(ownedBy: ":1.1") == 300)
    }

    @Test func aDepartingOwnerIsDetachedAtOnceAndCatchesUpInBatches() throws {
        var settings = ServiceSettings()
        settings.stacksPerClient = 0
        let f = try ServiceFixture(settings: settings)
        let big = try (0..<2_000).map { index in try f.register("org.example.Big", options: Self.document("\(index)")) }
        let small = try (0..<3).map { index in
            try f.register("org.example.Small", caller: ":1.2", options: Self.document("\(index)"))
        }
        f.service.subscribe(caller: ":1.9")
        let announcedBefore = f.publisher.announcements.count
        f.service.peerLeft(":1.1")
        f.endTurn()
        #expect(big.allSatisfy { !$0.isAttached && $0.owner.isEmpty && $0.detachedSince == f.clock.now },
                "every stack is detached the moment its owner leaves")
        #expect(f.service.registry.count(ownedBy: ":1.1") == 0)
        #expect(small.allSatisfy { $0.isAttached })
        #expect(f.service.focusedPath == small[2].path, "focus falls to the most recently active remaining stack")
        #expect(big.allSatisfy { $0.hasDepartedOwner }, "the turn the owner left did nothing a stack at a time")
        #expect(Self.changed(f, since: announcedBefore).isEmpty)

        f.advance(milliseconds: Int64(UndoService.settleInterval))
        f.endTurn()
        let first = big.filter { !$0.hasDepartedOwner }
        #expect(first.map(\.number) == big.prefix(UndoService.settleBatch).map(\.number),
                "one batch caught up, lowest numbers first")
        #expect(Self.changed(f, since: announcedBefore) == first.map(\.path), "each announced as it catches up")

        f.advance(milliseconds: 10_000)
        f.endTurn()
        #expect(big.allSatisfy { !$0.hasDepartedOwner && !$0.isAttached })
        let announced = Self.changed(f, since: announcedBefore)
        #expect(announced.count == big.count && Set(announced) == Set(big.map(\.path)))
        #expect(f.scheduler.pending == 1, "the batches stopped; one expiry timer serves 2,000 detached stacks")

        let timersBefore = f.scheduler.scheduled
        f.service.peerLeft(":1.2")
        f.endTurn()
        f.advance(milliseconds: Int64(UndoService.settleInterval))
        #expect(small.allSatisfy { !$0.isAttached && !$0.hasDepartedOwner })
        #expect(f.scheduler.scheduled == timersBefore + 2, "a batch and the one that found nothing left; no new expiry timer")
        #expect(f.service.focusedPath == "/")
    }

    @Test func aStackAdoptedBeforeItsBatchCatchesUpFirstAndStaysAdopted() throws {
        var settings = ServiceSettings()
        settings.stacksPerClient = 0
        let f = try ServiceFixture(settings: settings)
        let options = { (index: Int) in RegistrationOptions(document: "\(index)", windows: [UInt64(100 + index)]) }
        let stacks = try (0..<200).map { index in try f.register("org.example.Big", options: options(index)) }
        let last = try #require(stacks.last)
        f.service.subscribe(caller: ":1.9")
        f.service.peerLeft(":1.1")
        f.endTurn()
        #expect(last.windows.isEmpty, "a departed owner's windows are forgotten at once")
        let announcedBefore = f.publisher.announcements.count
        let adopted = try f.register("org.example.Big", caller: ":1.3", options: Self.document("199"))
        #expect(adopted === last)
        #expect(adopted.owner == ":1.3" && adopted.detachedSince == nil && adopted.windows.isEmpty)
        #expect(!adopted.hasDepartedOwner)
        let owners = f.publisher.announcements[announcedBefore...].compactMap { announcement -> String? in
            guard case .stackChanged(let path, let now, _) = announcement, path == last.path else { return nil }
            return now.owner
        }
        #expect(owners == ["", ":1.3"], "announced detached, then adopted, as when the detach came first")
        f.advance(milliseconds: 10_000)
        #expect(stacks.dropLast().allSatisfy { !$0.isAttached && !$0.hasDepartedOwner })
        #expect(last.isAttached && last.owner == ":1.3", "the batches leave the adopted stack alone")
        #expect(f.service.registry.count(ownedBy: ":1.3") == 1)
    }

    @Test func aDepartingOwnersApplyFailsAtOnce() throws {
        let f = try ServiceFixture()
        let record = try f.register("org.example.Notes")
        try f.push(record, "Typing")
        let outcome = ServiceAnswer<CompletedMove>()
        f.service.apply(.undo, on: record, caller: ":1.5", completion: outcome.take)
        #expect(outcome.result == nil, "the Apply is out")
        f.service.peerLeft(":1.1")
        #expect(throws: ServiceError.noOwner) { try outcome.get() }
        #expect(f.undoNames(record) == ["Typing"], "the stack is unchanged")
    }

    /// The paths of the stacks announced changed since announcement `start`.
    static func changed(_ f: ServiceFixture, since start: Int) -> [String] {
        f.publisher.announcements[start...].compactMap { announcement in
            guard case .stackChanged(let path, _, _) = announcement else { return nil }
            return path
        }
    }
}
