import DBus
import Loop
import SystemClock
import Undo1
import Undo1Wire
import UndoCore

/// The messages the bench sends, built before the clock starts so that
/// both sides of a ratio pay only for the round trip. The contract's calls
/// come from `Undo1Call`.
enum Calls {
    /// `org.freedesktop.DBus.Peer.Ping` to `destination` (a unique name):
    /// the peer's connection answers it as it reads it (as libdbus does),
    /// so it costs the peer only its loop turn — the floor.
    static func ping(_ destination: String) throws(BenchError) -> Message {
        try make("Ping") { () throws(DBusError) in
            try Message.methodCall(destination: destination, path: Undo1.managerPath,
                                   interface: "org.freedesktop.DBus.Peer", member: "Ping")
        }
    }

    /// `Stack.Push` of one action with these payloads, no hints, to
    /// `service` (undod's name, or the floor service's beside it).
    static func push(stack: String, name: String = "Typing", undo: [UInt8], redo: [UInt8],
                     to service: String = Undo1.busName) throws(BenchError) -> Message {
        try make("Push") { () throws(DBusError) in
            try Undo1Call.push(stack, name: name, undo: undo, redo: redo, to: service)
        }
    }

    /// `Manager.UndoFocused` to `service`.
    static func undoFocused(to service: String = Undo1.busName) throws(BenchError) -> Message {
        try make("UndoFocused") { () throws(DBusError) in try Undo1Call.applyFocused(.undo, to: service) }
    }

    /// `Manager.Register` to `service`.
    static func register(appId: String, options: RegistrationOptions,
                         to service: String = Undo1.busName) throws(BenchError) -> Message {
        try make("Register") { () throws(DBusError) in
            try Undo1Call.register(appId: appId, options: options, to: service)
        }
    }

    /// `ObjectManager.GetManagedObjects` on the manager.
    static func managedObjects() throws(BenchError) -> Message {
        try make("GetManagedObjects") { () throws(DBusError) in try Undo1Call.managedObjects() }
    }

    /// `Peer.Ping` to the bus itself: a round trip that proves every
    /// message sent before it (an `AddMatch`) has been read.
    static func pingBus() throws(BenchError) -> Message {
        try make("Ping") { () throws(DBusError) in
            try Message.methodCall(destination: Undo1.busService, path: Undo1.busPath,
                                   interface: "org.freedesktop.DBus.Peer", member: "Ping")
        }
    }

    /// `count` unsent copies of `template` (copying its bytes is far
    /// cheaper than checking and writing its values again).
    static func copies(of template: Message, _ count: Int) -> [Message] {
        (0..<count).map { _ in template.copy() }
    }

    private static func make(_ what: String, _ build: () throws(DBusError) -> Message) throws(BenchError) -> Message {
        do {
            return try build()
        } catch {
            throw BenchError("Cannot build \(what): \(error.message)")
        }
    }
}

/// Runs calls and times them: one at a time, or many in flight.
enum CallRunner {
    /// How long one call may take before the bench gives up on it.
    static let callTimeout = 10_000

    /// Sends each message, waiting for its reply before sending the next;
    /// returns each round trip in nanoseconds and the last reply.
    static func sequential(_ connection: Connection, _ messages: [Message], what: String,
                           child: ChildProcess? = nil) throws(BenchError) -> (times: [Int64], last: Message?) {
        var times: [Int64] = []
        times.reserveCapacity(messages.count)
        var last: Message?
        for message in messages {
            var result: Result<Message, DBusError>?
            let start = SystemTime.monotonicNanoseconds
            connection.call(message, timeoutMilliseconds: callTimeout) { result = $0 }
            try connection.loop.wait(for: "a reply to \(what)", timeoutMilliseconds: callTimeout + 2_000,
                                     child: child) { result != nil }
            times.append(SystemTime.monotonicNanoseconds - start)
            switch result {
            case .success(let reply): last = reply
            case .failure(let error): throw BenchError("\(what) failed: \(error)")
            case nil: break
            }
        }
        return (times, last)
    }

    /// Sends the calls of `a` and `b` alternately, one at a time (a b, b a,
    /// a b, …), so that both sides meet the same state of a noisy machine;
    /// returns each side's round trips in nanoseconds and each side's last
    /// reply.
    static func alternating(_ connection: Connection, _ a: [Message], _ b: [Message], what: (String, String),
                            child: ChildProcess? = nil) throws(BenchError)
        -> (a: [Int64], b: [Int64], lastA: Message?, lastB: Message?) {
        var timesA: [Int64] = [], timesB: [Int64] = []
        var lastA: Message?, lastB: Message?
        timesA.reserveCapacity(a.count)
        timesB.reserveCapacity(b.count)
        for index in 0..<max(a.count, b.count) {
            let aFirst = index % 2 == 0
            for side in aFirst ? [0, 1] : [1, 0] {
                let messages = side == 0 ? a : b
                guard index < messages.count else { continue }
                let (times, last) = try sequential(connection, [messages[index]], what: side == 0 ? what.0 : what.1,
                                                   child: child)
                if side == 0 {
                    timesA += times
                    lastA = last
                } else {
                    timesB += times
                    lastB = last
                }
            }
        }
        return (timesA, timesB, lastA, lastB)
    }

    /// Sends `count` calls keeping `inFlight` of them unanswered at every
    /// moment (a new one leaves as each reply comes); returns the
    /// nanoseconds from the first send to the last reply.
    static func pipelined(_ connection: Connection, count: Int, inFlight: Int, what: String,
                          child: ChildProcess? = nil, timeoutMilliseconds: Int = 120_000,
                          message: @escaping (Int) throws(BenchError) -> Message) throws(BenchError) -> Int64 {
        var sent = 0
        var answered = 0
        var failure: DBusError?
        var buildFailure: BenchError?
        // The reply handler sends the next call; it cannot throw, so a
        // failure to build one is kept and thrown below.
        var sendNext: () -> Void = {}
        sendNext = {
            guard sent < count, failure == nil, buildFailure == nil else { return }
            let next: Message
            do throws(BenchError) { next = try message(sent) } catch { buildFailure = error; return }
            sent += 1
            connection.call(next, timeoutMilliseconds: callTimeout) { result in
                answered += 1
                if case .failure(let error) = result, failure == nil { failure = error }
                sendNext()
            }
        }
        // Breaks the closure's cycle through itself, and makes replies that
        // come after a failure send nothing more.
        defer { sendNext = {} }
        let start = SystemTime.monotonicNanoseconds
        for _ in 0..<min(inFlight, count) { sendNext() }
        try connection.loop.wait(for: "\(count) replies to \(what)", timeoutMilliseconds: timeoutMilliseconds,
                                 child: child) {
            answered == count || failure != nil || buildFailure != nil
        }
        let elapsed = SystemTime.monotonicNanoseconds - start
        if let buildFailure { throw buildFailure }
        if let failure { throw BenchError("\(what) failed: \(failure)") }
        return elapsed
    }

    /// One call and its reply's arguments (for set-up, not timed).
    static func once(_ connection: Connection, _ message: Message, what: String,
                     child: ChildProcess? = nil) throws(BenchError) -> [DBusValue] {
        let (_, last) = try sequential(connection, [message], what: what, child: child)
        return last?.arguments ?? []
    }
}
