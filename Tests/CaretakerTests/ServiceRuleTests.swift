import Caretaker
import Testing
import Undo1
import UndoCore
import UndoStore

/// The service's rules tested exactly, in this process: expiry by the
/// clock, a failed commit's rollback, the global budget, the apply queue
/// and its timeout. No bus, no timers but the test's.
@Suite struct ServiceRuleTests {
    @Test func aDetachedStackExpiresExactlyAtItsTimeToLive() throws {
        var settings = ServiceSettings()
        settings.detachedTTLMilliseconds = 60_000
        let f = try ServiceFixture(settings: settings)
        let notes = try f.register("org.example.Notes")
        try f.push(notes, "Typing")
        f.service.peerLeft(":1.1")
        f.endTurn()
        #expect(!notes.isAttached)

        f.advance(milliseconds: 59_999)
        #expect(f.service.registry.byNumber[notes.number] != nil, "kept until its time to live is up")
        f.advance(milliseconds: 1)
        f.endTurn()
        #expect(f.service.registry.byNumber[notes.number] == nil)
        #expect(f.publisher.withdrawn == [notes.path])
        #expect(f.publisher.removed == [notes.path])
        #expect(f.scheduler.pending == 0, "no timer is left for a stack that is gone")
    }

    @Test func adoptionStopsTheClockAndALaterDetachRestartsIt() throws {
        var settings = ServiceSettings()
        settings.detachedTTLMilliseconds = 10_000
        let f = try ServiceFixture(settings: settings)
        let notes = try f.register("org.example.Notes")
        f.service.peerLeft(":1.1")
        f.advance(milliseconds: 9_000)
        #expect(try f.register("org.example.Notes", caller: ":1.2") === notes, "adopted, not made anew")
        f.advance(milliseconds: 60_000)
        #expect(f.service.registry.byNumber[notes.number] != nil, "an owned stack never expires")
        f.service.peerLeft(":1.2")
        f.advance(milliseconds: 9_999)
        #expect(f.service.registry.byNumber[notes.number] != nil)
        f.advance(milliseconds: 1)
        #expect(f.service.registry.byNumber[notes.number] == nil)
    }

    @Test func aFailedCommitTakesThePushBackAndWithdrawsItsSignal() throws {
        let f = try ServiceFixture()
        f.service.subscribe(caller: ":1.9")
        let notes = try f.register("org.example.Notes")
        try f.push(notes, "A")
        f.publisher.clear()

        f.store.failing = true
        let answer = f.pushKeepingTurn(notes, "B")
        #expect(answer.result == nil, "the reply waits for the turn's commit")
        f.endTurn()
        guard case .storageFailed(let reason) = answer.error else {
            Issue.record("the push was answered \(String(describing: answer.result))")
            return
        }
        #expect(reason.contains("the disk is full"))
        #expect(f.undoNames(notes) == ["A"], "the stack is exactly as before the push")
        #expect(f.publisher.pushed.isEmpty, "nothing was announced of the push taken back")

        // While the store fails, what was reserved before may still be used;
        // once it saves again, pushes are answered at the turn's end.
        f.store.failing = false
        #expect(try f.push(notes, "C").merged == false)
        #expect(f.undoNames(notes) == ["A", "C"])
        #expect(f.publisher.pushed == ["C"])
    }

    @Test func anUndoTheOwnerAppliedStaysWhenItsCommitFails() throws {
        let f = try ServiceFixture()
        let notes = try f.register("org.example.Notes")
        try f.push(notes, "A")
        try f.push(notes, "B")
        f.store.failing = true
        let answer = ServiceAnswer<CompletedMove>()
        f.service.apply(.undo, on: notes, caller: nil, completion: answer.take)
        #expect(f.apps.answerNext()?.group == notes.stack.history.redo.first?.group)
        f.endTurn()
        guard case .notSaved = answer.error else {
            Issue.record("the undo was answered \(String(describing: answer.result))")
            return
        }
        #expect(f.undoNames(notes) == ["A"], "the document moved, so memory stays with it")
        #expect(notes.stack.redoDepth == 1)
    }

    @Test func theBudgetTakesTheOldestGroupsOfTheLeastRecentlyActiveStack() throws {
        var settings = ServiceSettings()
        settings.maxTotalBytes = 3_000
        let f = try ServiceFixture(settings: settings)
        let old = try f.register("org.example.Old", caller: ":1.1")
        let new = try f.register("org.example.New", caller: ":1.2")
        try f.push(old, "old 1", caller: ":1.1", bytes: 1_000)
        try f.push(old, "old 2", caller: ":1.1", bytes: 1_000)
        try f.push(new, "new 1", caller: ":1.2", bytes: 900)
        // 3,000 bytes over: the least recently active stack loses first.
        try f.push(new, "new 2", caller: ":1.2", bytes: 900)
        #expect(f.undoNames(old) == ["old 2"])
        #expect(f.undoNames(new) == ["new 1", "new 2"])
        #expect(f.service.registry.totalBytes <= 3_000)
    }

    @Test func aPushNeverLosesItsOwnGroupToTheBudget() throws {
        var settings = ServiceSettings()
        settings.maxTotalBytes = 1_500
        let f = try ServiceFixture(settings: settings)
        let notes = try f.register("org.example.Notes")
        try f.push(notes, "first", bytes: 1_000)
        try f.push(notes, "second", bytes: 1_000)
        #expect(f.undoNames(notes) == ["second"])
    }

    @Test func aFullQueueRefusesAndATimeoutLeavesTheStackAsItWasUntilTheLateAnswer() throws {
        var settings = ServiceSettings()
        settings.applyQueue = 1
        settings.applyTimeoutMilliseconds = 2_000
        let f = try ServiceFixture(settings: settings)
        let notes = try f.register("org.example.Notes")
        try f.push(notes, "A")
        try f.push(notes, "B")
        let first = ServiceAnswer<CompletedMove>(), second = ServiceAnswer<CompletedMove>(), third = ServiceAnswer<CompletedMove>()
        f.service.apply(.undo, on: notes, caller: nil, completion: first.take)
        f.service.apply(.undo, on: notes, caller: nil, completion: second.take)
        f.service.apply(.undo, on: notes, caller: nil, completion: third.take)
        #expect(third.error == .queueFull(limit: 1))
        #expect(first.result == nil && second.result == nil)

        f.advance(milliseconds: 1_999)
        #expect(first.result == nil, "the owner has until its timeout")
        f.advance(milliseconds: 1)
        #expect(first.error == .timeout(milliseconds: 2_000))
        #expect(f.undoNames(notes) == ["A", "B"], "a timed-out undo leaves the history as it was")
        // The app may still apply B: the stack waits for that answer, and
        // hands nothing else out meanwhile (the waiting request included).
        #expect(second.error == .awaitingLateAnswer(.undo, name: "B"))
        let meanwhile = ServiceAnswer<CompletedMove>()
        f.service.apply(.undo, on: notes, caller: nil, completion: meanwhile.take)
        #expect(meanwhile.error == .awaitingLateAnswer(.undo, name: "B"))
        #expect(f.pushKeepingTurn(notes, "C").error == .model(.busy(.undo)), "nor does the owner change it")
        #expect(f.apps.waiting.count == 1, "B's Apply alone is out")
        #expect(ServiceError.awaitingLateAnswer(.undo, name: "B").refusal(stack: "“Notes”").name == .busy)

        // The late success moves B, exactly as a timely one.
        #expect(f.apps.answerNext(.applied)?.group != nil)
        f.endTurn()
        #expect(f.undoNames(notes) == ["A"])
        let next = ServiceAnswer<CompletedMove>()
        f.service.apply(.undo, on: notes, caller: nil, completion: next.take)
        #expect(f.apps.answerNext(.applied) != nil, "the next undo asks for A, never B again")
        f.endTurn()
        #expect(try next.get().name == "A")
    }

    /// One alarm serves every apply's deadline (`Applier`): set for the
    /// earliest, left alone when an apply ends, set earlier when a shorter
    /// timeout comes after a reload. Each apply still times out exactly at
    /// its own deadline, neither sooner nor later.
    @Test func everyApplyTimesOutExactlyAtItsOwnDeadline() throws {
        var settings = ServiceSettings()
        settings.applyTimeoutMilliseconds = 1_000
        let f = try ServiceFixture(settings: settings)
        let notes = try f.register("org.example.Notes")
        let todo = try f.register("org.example.Todo")
        try f.push(notes, "A")
        try f.push(todo, "B")
        let first = ServiceAnswer<CompletedMove>(), second = ServiceAnswer<CompletedMove>()
        f.service.apply(.undo, on: notes, caller: nil, completion: first.take)  // due at 1,000
        f.advance(milliseconds: 400)
        f.service.apply(.undo, on: todo, caller: nil, completion: second.take)  // due at 1,400
        f.apps.answerNext(.applied)
        f.endTurn()
        #expect(try first.get().name == "A", "the first is answered in time")
        f.advance(milliseconds: 600)
        #expect(second.result == nil, "the alarm set for the first deadline times out nothing early")
        f.advance(milliseconds: 399)
        #expect(second.result == nil, "the second has until 1,400")
        f.advance(milliseconds: 1)
        #expect(second.error == .timeout(milliseconds: 1_000))
        f.apps.answerNext(.applied)
        f.endTurn()

        // A long timeout sets the alarm late; a shorter one after a reload sets it earlier.
        settings.applyTimeoutMilliseconds = 10_000
        f.service.reload(settings)
        try f.push(notes, "C")
        try f.push(todo, "D")
        let slow = ServiceAnswer<CompletedMove>(), quick = ServiceAnswer<CompletedMove>()
        f.service.apply(.undo, on: notes, caller: nil, completion: slow.take)  // due in 10,000
        settings.applyTimeoutMilliseconds = 500
        f.service.reload(settings)
        f.service.apply(.undo, on: todo, caller: nil, completion: quick.take)  // due in 500
        f.advance(milliseconds: 499)
        #expect(quick.result == nil)
        f.advance(milliseconds: 1)
        #expect(quick.error == .timeout(milliseconds: 500))
        #expect(slow.result == nil, "the first keeps its own deadline")
        f.advance(milliseconds: 9_499)
        #expect(slow.result == nil)
        f.advance(milliseconds: 1)
        #expect(slow.error == .timeout(milliseconds: 10_000), "named with the timeout it went out with")
    }

    @Test func aLateErrorLeavesTheStackAsItWas() throws {
        var settings = ServiceSettings()
        settings.applyTimeoutMilliseconds = 1_000
        let f = try ServiceFixture(settings: settings)
        let notes = try f.register("org.example.Notes")
        try f.push(notes, "A")
        let first = ServiceAnswer<CompletedMove>()
        f.service.apply(.undo, on: notes, caller: nil, completion: first.take)
        f.advance(milliseconds: 1_000)
        #expect(first.error == .timeout(milliseconds: 1_000))
        f.apps.answerNext(.failed(name: "org.example.Error.Failed", message: "could not"))
        f.endTurn()
        #expect(f.undoNames(notes) == ["A"], "the late error leaves it")
        let again = ServiceAnswer<CompletedMove>()
        f.service.apply(.undo, on: notes, caller: nil, completion: again.take)
        #expect(f.apps.waiting.first?.arguments.group != nil, "undo may go out again")
        f.apps.answerNext(.applied)
        f.endTurn()
        #expect(try again.get().name == "A")
    }
}

/// `Deactivate` under `recent`: the guess never lands on an app that said it
/// lost the user's focus.
@Suite struct DeactivateTests {
    @Test func aDeactivatedStackIsNotFocusedUntilItsOwnerIsActiveAgain() throws {
        let f = try ServiceFixture()
        let notes = try f.register("org.example.Notes", caller: ":1.1")
        let paint = try f.register("org.example.Paint", caller: ":1.2")
        #expect(f.service.focusedPath == paint.path)
        let answer = ServiceAnswer<Void>()
        f.service.deactivate(paint, caller: ":1.2", reply: answer.take)
        f.endTurn()
        try answer.get()
        #expect(f.service.focusedPath == notes.path, "focus falls to the most recently active remaining one")

        let other = ServiceAnswer<Void>()
        f.service.deactivate(notes, caller: ":1.1", reply: other.take)
        f.endTurn()
        try other.get()
        #expect(f.service.focusedPath == ManagerProperties.noStack, "no attached stack is active: nothing")
        #expect(f.service.focus.reasonForNoFocus(in: f.service.registry) != nil)

        try f.push(paint, "Stroke", caller: ":1.2")
        #expect(f.service.focusedPath == paint.path, "a push makes it active again")
    }

    @Test func onlyTheOwnerMayDeactivate() throws {
        let f = try ServiceFixture()
        let notes = try f.register("org.example.Notes", caller: ":1.1")
        let answer = ServiceAnswer<Void>()
        f.service.deactivate(notes, caller: ":1.9", reply: answer.take)
        f.endTurn()
        #expect(answer.error == .notOwner(caller: ":1.9"))
        #expect(f.service.focusedPath == notes.path)
    }
}
