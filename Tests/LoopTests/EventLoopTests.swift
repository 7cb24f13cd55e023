import Loop
import Testing

/// The order of a turn: deferred work, the end-of-turn hooks, then the
/// after-turn hooks, whose work is followed by the end-of-turn hooks again.
@Suite struct EventLoopTests {
    @Test func workAnAfterTurnHookDoesIsEndedInAStepOfItsOwn() {
        let loop = EventLoop()
        var order: [String] = []
        var large = 2
        _ = loop.addTurnEndHook { order.append("end") }
        _ = loop.addAfterTurnHook {
            guard large > 0 else { return false }
            large -= 1
            order.append("large")
            loop.soon { order.append("deferred by large") }
            return true
        }
        loop.soon { order.append("small") }
        loop.runTurn(maxWaitMilliseconds: 0)
        #expect(order == ["small", "end", "large", "deferred by large", "end"])
        // A turn whose after-turn hooks do nothing ends once.
        order.removeAll()
        large = 0
        loop.soon { order.append("small") }
        loop.runTurn(maxWaitMilliseconds: 0)
        #expect(order == ["small", "end"])
    }

    /// A work hook that queues its last work before the turn waits (a
    /// connection dispatching the last messages it read, reporting nothing
    /// more) keeps the loop from sleeping: the work runs before a timer
    /// 10 s away. It slept until the next wake-up once — the pipelined
    /// pushes that got no answer within 25 s.
    @Test func workAHookQueuesAsTheTurnBeginsRunsWithoutWaiting() {
        let loop = EventLoop()
        var order: [String] = []
        var messagesLeft = 1
        _ = loop.addWorkHook {
            if messagesLeft > 0 {
                messagesLeft -= 1
                loop.soon { order.append("dispatched") }
            }
            return false
        }
        _ = loop.schedule(afterMilliseconds: 10_000) { order.append("timer") }
        loop.runTurn(maxWaitMilliseconds: -1)
        #expect(order == ["dispatched"])
    }

    @Test func anAfterTurnHookRemovedByAnotherDoesNotRun() {
        let loop = EventLoop()
        var ran: [String] = []
        var second: EventLoop.Token?
        _ = loop.addAfterTurnHook {
            ran.append("first")
            if let second { loop.remove(second) }
            return false
        }
        second = loop.addAfterTurnHook {
            ran.append("second")
            return false
        }
        loop.runTurn(maxWaitMilliseconds: 0)
        #expect(ran == ["first"])
    }
}
