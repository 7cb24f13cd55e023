import DBus
import Testing
import Undo1
import UndoCore
import UndoDaemon

/// What one connection may own, and what its leaving costs: the per-client
/// cap (`limits.stacks_per_client`, `TooManyStacks`) and detaching in time
/// proportional to what the connection owned.
@Suite struct OwnershipTests {
    static func capped(_ cap: UInt32) throws -> ServiceFixture {
        var config = DaemonConfig()
        config.stacksPerClient = cap
        return try ServiceFixture(config: config)
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
        let sentence = ServiceError.tooManyStacks(limit: 3).dbusError(stack: nil)
        #expect(sentence.name == Undo1ErrorName.tooManyStacks.rawValue)
        #expect(sentence.message.contains("3 stacks") && sentence.message.contains("limits.stacks_per_client"))
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

    @Test func aDepartingOwnerIsDetachedWithoutLookingAtEveryStack() throws {
        var config = DaemonConfig()
        config.stacksPerClient = 0
        let f = try ServiceFixture(config: config)
        for index in 0..<2_000 { _ = try f.register("org.example.Big", options: Self.document("\(index)")) }
        let small = try (0..<3).map { index in
            try f.register("org.example.Small", caller: ":1.2", options: Self.document("\(index)"))
        }
        let timersAtStart = f.scheduler.scheduled
        f.service.peerLeft(":1.1")
        f.endTurn()
        #expect(f.scheduler.scheduled == timersAtStart + 1, "one expiry timer for 2,000 stacks detached at once")
        #expect(f.service.registry.count(ownedBy: ":1.1") == 0)
        #expect(small.allSatisfy { $0.isAttached })
        #expect(f.service.focusedPath == small[2].path, "focus falls to the most recently active remaining stack")
        let timersBefore = f.scheduler.scheduled
        f.service.peerLeft(":1.2")
        f.endTurn()
        #expect(small.allSatisfy { !$0.isAttached })
        #expect(f.scheduler.scheduled == timersBefore, "the running expiry timer serves stacks detached later")
        #expect(f.service.focusedPath == "/")
    }
}
