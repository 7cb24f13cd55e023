import BusHarness
@testable import DBus
import Loop
import Testing

extension IncomingLanes {
    /// `item` back when it may be handled now; else held, and nil.
    mutating func admit(_ item: Item, kind: Message.Kind, sender: String, bytes: Int) -> Item? {
        guard mustHold(kind, sender: sender, bytes: bytes) else { return item }
        hold(item, sender: sender, bytes: bytes, since: 0)
        return nil
    }
}

/// Large calls wait in a lane of their own; small calls of other senders go
/// ahead; nothing one sender sends is reordered; signals keep their place.
@Suite struct IncomingLanesTests {
    static let large = IncomingLanes<String>.largeCallBytes

    @Test func aSmallCallOvertakesLargeOnesOfAnotherSender() {
        var lanes = IncomingLanes<String>()
        #expect(lanes.admit("A1", kind: .methodCall, sender: ":1.1", bytes: Self.large) == nil)
        #expect(lanes.admit("A2", kind: .methodCall, sender: ":1.1", bytes: Self.large * 4) == nil)
        #expect(lanes.admit("B", kind: .methodCall, sender: ":1.2", bytes: 200) == "B")
        #expect(lanes.admit("C reply", kind: .methodReturn, sender: ":1.3", bytes: 0) == "C reply")
        #expect(lanes.next() == "A1")
        #expect(lanes.next() == "A2")
        #expect(lanes.next() == nil)
        #expect(lanes.isEmpty)
        #expect(lanes.admit("A3", kind: .methodCall, sender: ":1.1", bytes: 10) == "A3", "nothing held: at once")
    }

    @Test func aSenderWithAHeldCallKeepsItsOrderRepliesIncluded() {
        var lanes = IncomingLanes<String>()
        #expect(lanes.admit("big", kind: .methodCall, sender: ":1.1", bytes: Self.large) == nil)
        #expect(lanes.admit("small", kind: .methodCall, sender: ":1.1", bytes: 10) == nil)
        #expect(lanes.admit("reply", kind: .methodReturn, sender: ":1.1", bytes: 0) == nil)
        #expect(lanes.admit("error", kind: .error, sender: ":1.1", bytes: 0) == nil)
        #expect([lanes.next(), lanes.next(), lanes.next(), lanes.next()] == ["big", "small", "reply", "error"])
    }

    @Test func aPreparedCallWaitsForItsWorkOneAtATimeAndIsNotCountedFull() {
        var lanes = IncomingLanes<String>()
        var started: [String] = []
        let prepared: (String) -> IncomingLanes<String>.Preparation = { name in { _ in started.append(name); return true } }
        lanes.hold("push 1", sender: ":1.1", bytes: IncomingLanes<String>.fullBytes, since: 0, prepare: prepared("push 1"))
        lanes.hold("push 2", sender: ":1.2", bytes: IncomingLanes<String>.fullBytes / 2, since: 0, prepare: prepared("push 2"))
        #expect(!lanes.nextIsReady, "its work has not started")
        let first = lanes.takePreparation()
        _ = first?.prepare {}
        #expect(started == ["push 1"], "only the longest held starts")
        #expect(lanes.takePreparation() == nil, "one at a time")
        #expect(!lanes.nextIsReady)
        #expect(!lanes.isFull, "the call being prepared is not counted")
        lanes.markReady(first?.token ?? 0)
        #expect(lanes.nextIsReady)
        #expect(lanes.isFull)
        #expect(lanes.next() == "push 1")
        _ = lanes.takePreparation()?.prepare {}
        #expect(started == ["push 1", "push 2"])
        #expect(!lanes.nextIsReady && lanes.next() == "push 2", "next() hands out what the connection lets go")
    }

    @Test func signalsWaitWhileAnythingIsHeld() {
        var lanes = IncomingLanes<String>()
        #expect(lanes.admit("signal", kind: .signal, sender: "org.freedesktop.DBus", bytes: 0) == "signal")
        #expect(lanes.admit("big", kind: .methodCall, sender: ":1.1", bytes: Self.large) == nil)
        // A client's departure is never handled before that client's held calls.
        #expect(lanes.admit("left", kind: .signal, sender: "org.freedesktop.DBus", bytes: 0) == nil)
        #expect([lanes.next(), lanes.next()] == ["big", "left"])
    }

    @Test func theLaneIsFullByBytesOrCount() {
        var lanes = IncomingLanes<Int>()
        var count = 0
        while !lanes.isFull {
            #expect(lanes.admit(count, kind: .methodCall, sender: ":1.1", bytes: Self.large) == nil)
            count += 1
        }
        #expect(count == min(IncomingLanes<Int>.fullBytes / Self.large, IncomingLanes<Int>.fullCount))
        #expect(lanes.next() == 0)
        #expect(!lanes.isFull)
        // Small messages held behind one large call fill it by count.
        var many = IncomingLanes<Int>()
        #expect(many.admit(0, kind: .methodCall, sender: ":1.1", bytes: Self.large) == nil)
        for index in 1..<IncomingLanes<Int>.fullCount {
            #expect(!many.isFull)
            #expect(many.admit(index, kind: .signal, sender: "org.freedesktop.DBus", bytes: 0) == nil)
        }
        #expect(many.isFull)
        lanes.removeAll()
        #expect(lanes.isEmpty && lanes.next() == nil)
    }

    /// A held large call goes once the socket has been quiet a millisecond
    /// (the bus may still be refilling it with a small call behind), or
    /// once it has waited 25 ms for that: a socket that never falls quiet
    /// does not starve it.
    @Test func aLargeCallWaitsForTheSocketToFallQuietForAtMostItsBound() {
        let ms: Int64 = 1_000_000
        var lanes = IncomingLanes<String>()
        #expect(lanes.largeCallMayGo(lastReadAt: 0) == nil, "nothing held")
        lanes.hold("big", sender: ":1.1", bytes: Self.large, since: 100 * ms)
        lanes.hold("next", sender: ":1.2", bytes: Self.large, since: 110 * ms)
        #expect(lanes.largeCallMayGo(lastReadAt: 100 * ms) == 101 * ms)
        #expect(lanes.largeCallMayGo(lastReadAt: 112 * ms) == 113 * ms, "read again: a millisecond from then")
        #expect(lanes.largeCallMayGo(lastReadAt: 124 * ms + ms / 2) == 125 * ms, "at most 25 ms after it was held")
        #expect(lanes.next() == "big")
        #expect(lanes.largeCallMayGo(lastReadAt: 140 * ms) == 135 * ms, "the next is timed from its own arrival")
    }

    /// Through a real bus: one sender's large and small calls, interleaved,
    /// are all answered, in the order sent; a large call alone is answered
    /// too (the lane lets it through once the socket is dry).
    @Test func largeAndSmallCallsOfOneSenderAreHandledInOrder() throws {
        let f = try Fixture()
        var seen: [Int] = []
        f.objects.export(path: "/order", interfaces: [
            Interface("test.Order", methods: [
                .init("Take", inputs: [.init("n", "u"), .init("bytes", "ay")]) { call in
                    seen.append(Int(call.arguments[0].uint32 ?? 0))
                    call.reply()
                },
            ]),
        ])
        var answered = 0
        for index in 0..<12 {
            let bytes = index % 3 == 0 ? Self.large * 2 : 16
            let call = try Message.methodCall(
                destination: f.server.uniqueName, path: "/order", interface: "test.Order", member: "Take",
                arguments: [.uint32(UInt32(index)), .bytes([UInt8](repeating: 7, count: bytes))])
            f.client.call(call, timeoutMilliseconds: 10_000) { result in
                if case .success = result { answered += 1 }
            }
        }
        #expect(f.wait(timeout: 10_000) { answered == 12 })
        #expect(seen == Array(0..<12))
        let alone = try Message.methodCall(
            destination: f.server.uniqueName, path: "/order", interface: "test.Order", member: "Take",
            arguments: [.uint32(99), .bytes([UInt8](repeating: 1, count: Self.large * 3))])
        #expect(try f.client.callAndWait(alone, timeoutMilliseconds: 10_000).arguments.isEmpty)
        #expect(seen.last == 99)
    }

    /// A reply from a sender whose large call is held waits behind that
    /// call: the large call is handled first, then the reply.
    @Test func aReplyWaitsBehindItsSendersLargeCall() throws {
        let f = try Fixture()
        let clientObjects = ObjectServer(connection: f.client)
        var order: [String] = []
        clientObjects.export(path: "/sink", interfaces: [
            Interface("test.Sink", methods: [
                .init("Take", inputs: [.init("bytes", "ay")]) { call in
                    order.append("large call")
                    call.reply()
                },
            ]),
        ])
        let client = f.client.uniqueName
        let server = f.server
        f.objects.export(path: "/echo", interfaces: [
            Interface("test.Echo", methods: [
                .init("Echo") { call in
                    // First a large call to the caller, then the answer.
                    if let large = try? Message.methodCall(
                        destination: client, path: "/sink", interface: "test.Sink", member: "Take",
                        arguments: [.bytes([UInt8](repeating: 3, count: Self.large * 2))]) {
                        server.call(large, timeoutMilliseconds: 10_000) { _ in }
                    }
                    call.reply()
                },
            ]),
        ])
        let echo = try Message.methodCall(destination: server.uniqueName, path: "/echo", interface: "test.Echo",
                                          member: "Echo")
        f.client.call(echo, timeoutMilliseconds: 10_000) { _ in order.append("reply") }
        #expect(f.wait(timeout: 10_000) { order.count == 2 })
        #expect(order == ["large call", "reply"])
    }

    /// Through a real bus: while another client keeps calling, each large
    /// call is handled in a step of its own, between two end-of-turn hooks
    /// (where undod commits and answers), so no small call's answer waits
    /// for a large call's work.
    @Test func aLargeCallIsEndedOnItsOwnWhileSmallCallsFlow() throws {
        let f = try Fixture()
        let other = try Connection(address: f.bus.address, loop: f.loop)
        defer { other.close() }
        var log = ""
        _ = f.loop.addTurnEndHook { log += "|" }
        f.objects.export(path: "/mixed", interfaces: [
            Interface("test.Mixed", methods: [
                .init("Large", inputs: [.init("bytes", "ay")]) { call in
                    log += "L"
                    call.reply()
                },
                .init("Small") { call in
                    log += "s"
                    call.reply()
                },
            ]),
        ])
        let count = 24
        var largeAnswered = 0
        var smallAnswered = 0
        func callSmall() {
            guard largeAnswered < count,
                  let call = try? Message.methodCall(destination: f.server.uniqueName, path: "/mixed",
                                                     interface: "test.Mixed", member: "Small")
            else { return }
            other.call(call, timeoutMilliseconds: 10_000) { result in
                if case .success = result { smallAnswered += 1 }
                callSmall()
            }
        }
        // Four small callers in a closed loop, as the flood's prober is one.
        for _ in 0..<4 { callSmall() }
        for _ in 0..<count {
            let call = try Message.methodCall(
                destination: f.server.uniqueName, path: "/mixed", interface: "test.Mixed", member: "Large",
                arguments: [.bytes([UInt8](repeating: 9, count: Self.large * 4))])
            f.client.call(call, timeoutMilliseconds: 10_000) { result in
                if case .success = result { largeAnswered += 1 }
            }
        }
        #expect(f.wait(timeout: 10_000) { largeAnswered == count })
        #expect(smallAnswered > 0)
        let steps = log.split(separator: "|")
        let withLarge = steps.filter { $0.contains("L") }
        #expect(withLarge.count == count)
        #expect(withLarge.allSatisfy { $0 == "L" }, "steps with a large call: \(withLarge.filter { $0 != "L" })")
    }

    /// What a preparation made, handed to the method that serves the call.
    final class Made {
        let name: String
        init(_ name: String) { self.name = name }
    }

    /// The interface both tests below export: `Large` is prepared by
    /// `prepare` and served with what it made; `Small` records who called.
    static func prepared(_ handled: @escaping (String) -> Void,
                         prepare: @escaping (MethodCall, @escaping (Made?) -> Void) -> Bool) -> Interface {
        Interface("test.Prepared", methods: [
            .init("Large", inputs: [.init("bytes", "ay")]) { _ in Issue.record("served unprepared") },
            .init("Small", inputs: [.init("who", "s")]) { call in
                handled(call.arguments.first?.string ?? "")
                call.reply()
            },
        ]).preparing("Large", with: prepare, then: { call, made in
            handled("large with \(made?.name ?? "nothing")")
            call.reply()
        })
    }

    /// A call being prepared off the loop (`Interface.preparing`) waits for
    /// its `done`; meanwhile other senders are served although it fills the
    /// lane alone (a 60 MiB push being written once stopped everyone), its
    /// own sender's next call waits behind it, and the loop sleeps. It is
    /// routed once: the method that prepared it serves it, with what was made.
    @Test func aCallBeingPreparedLetsOthersThroughUntilItIsReady() throws {
        let f = try Fixture()
        let other = try Connection(address: f.bus.address, loop: f.loop)
        defer { other.close() }
        var handled: [String] = []
        var ready: (() -> Void)?
        var asked = 0
        f.objects.export(path: "/prepared", interfaces: [Self.prepared({ handled.append($0) }) { _, done in
            asked += 1
            ready = { done(Made("its file")) }
            return true
        }])
        let fill = IncomingLanes<() -> Void>.fullBytes + (1 << 20)
        var answered: [String] = []
        let large = try Message.methodCall(destination: f.server.uniqueName, path: "/prepared", interface: "test.Prepared",
                                           member: "Large", arguments: [.bytes([UInt8](repeating: 6, count: fill))])
        f.client.call(large, timeoutMilliseconds: 10_000) { if case .success = $0 { answered.append("large") } }
        let behind = try Message.methodCall(destination: f.server.uniqueName, path: "/prepared",
                                            interface: "test.Prepared", member: "Small", arguments: [.string("behind")])
        f.client.call(behind, timeoutMilliseconds: 10_000) { if case .success = $0 { answered.append("behind") } }
        #expect(f.wait { ready != nil }, "the preparation starts once the call heads the lane")
        let small = try Message.methodCall(destination: f.server.uniqueName, path: "/prepared", interface: "test.Prepared",
                                           member: "Small", arguments: [.string("other")])
        #expect(try other.callAndWait(small, timeoutMilliseconds: 10_000).arguments.isEmpty, "served meanwhile")
        var turns = 0
        let counting = f.loop.addTurnEndHook { turns += 1 }
        #expect(!f.wait(timeout: 300) { !answered.isEmpty })
        f.loop.remove(counting)
        #expect(turns < 100, "the loop turned \(turns) times in 300 ms with only a call being prepared")
        #expect(handled == ["other"])
        ready?()
        #expect(f.wait { answered.count == 2 })
        #expect(handled == ["other", "large with its file", "behind"])
        #expect(answered == ["large", "behind"])
        #expect(asked == 1, "asked once, for the large call only")
    }

    /// A call routed early, to start its preparation, reaches what is
    /// exported when it is served, as every other call does: other objects
    /// coming and going leave its route and what was made alone; its own
    /// object removed meanwhile, it is answered `UnknownObject`, not served
    /// by the handler of an object that is gone. A preparation that answers
    /// false has the call served at once, with nothing made.
    @Test func aCallRoutedEarlyFindsWhatIsExportedWhenServed() throws {
        let f = try Fixture()
        var handled: [String] = []
        var ready: (() -> Void)?
        f.objects.export(path: "/prepared", interfaces: [Self.prepared({ handled.append($0) }) { _, done in
            ready = { done(Made("a file")) }
            return true
        }])
        let payload = DBusValue.bytes([UInt8](repeating: 1, count: IncomingLanes<() -> Void>.largeCallBytes * 2))
        // Another object coming and going meanwhile changes nothing for it.
        var kept: Result<Message, DBusError>?
        let large = try Message.methodCall(destination: f.server.uniqueName, path: "/prepared", interface: "test.Prepared",
                                           member: "Large", arguments: [payload])
        f.client.call(large, timeoutMilliseconds: 10_000) { kept = $0 }
        #expect(f.wait { ready != nil })
        f.objects.export(path: "/other", interfaces: [Self.prepared({ _ in }) { _, _ in false }])
        f.objects.unexport(path: "/other")
        ready?()
        ready = nil
        #expect(f.wait { kept != nil })
        #expect(handled == ["large with a file"], "served by the route it had, with what was made")
        handled.removeAll()

        var first: Result<Message, DBusError>?
        let again = try Message.methodCall(destination: f.server.uniqueName, path: "/prepared",
                                           interface: "test.Prepared", member: "Large", arguments: [payload])
        f.client.call(again, timeoutMilliseconds: 10_000) { first = $0 }
        #expect(f.wait { ready != nil })
        f.objects.unexport(path: "/prepared")
        ready?()
        #expect(f.wait { first != nil })
        #expect(first.flatMap { try? $0.get() } == nil)
        if case .failure(let error)? = first { #expect(error.name == DBusError.Names.unknownObject) }
        #expect(handled.isEmpty)

        // Exported again: the next large call is not prepared (false) and is served with nothing.
        f.objects.export(path: "/prepared", interfaces: [Self.prepared({ handled.append($0) }) { _, _ in false }])
        let last = try Message.methodCall(destination: f.server.uniqueName, path: "/prepared", interface: "test.Prepared",
                                          member: "Large", arguments: [payload])
        #expect(try f.client.callAndWait(last, timeoutMilliseconds: 10_000).arguments.isEmpty)
        #expect(handled == ["large with nothing"])
    }
}
