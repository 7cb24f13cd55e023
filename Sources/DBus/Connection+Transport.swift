internal import CDBus
import Loop
import SystemClock
#if canImport(Glibc)
internal import Glibc
#endif

/// The socket under a connection: saying Hello, reading and routing what
/// arrives, writing what is sent.
extension Connection {
    /// The most a readable socket is read in one go (8 MiB): reading ahead
    /// is how a small call behind large ones is found (see
    /// `IncomingLanes`); the bound gives the loop back to its other work.
    static let readAheadBytes = 8 << 20
    /// The most messages routed in one turn.
    static let batch = 256

    /// Sends `hello` (numbered `serial`) on a fresh socket and waits for
    /// its answer; returns the unique name it gives and the messages that
    /// arrived meanwhile.
    static func sayHello(_ hello: Message, serial: UInt32, on socket: BusSocket,
                         reader: MessageReader) throws(DBusError) -> (String, [Message]) {
        hello.serial = serial
        hello.isNumbered = true
        let bytes = hello.bytesToSend
        let deadline = SystemTime.monotonicNanoseconds + Int64(helloTimeoutMilliseconds) * 1_000_000
        var outgoing = OutgoingBytes()
        outgoing.append(bytes)
        while !outgoing.isEmpty {
            switch outgoing.write(to: socket) {
            case .closed: throw DBusError(name: DBusError.Names.noServer, message: "The bus closed the connection.")
            case .wouldBlock: try socket.wait(for: Int16(POLLOUT), until: deadline)
            case .moved: break
            }
        }
        var early: [Message] = []
        while true {
            while let bytes = try reader.next() {
                let message = try received(bytes, on: socket)
                guard message.replySerial == serial else {
                    early.append(message)
                    continue
                }
                if let error = message.error { throw error }
                guard let name = message.arguments.first?.string else {
                    throw .failed("The bus answered Hello without a name.")
                }
                return (name, early)
            }
            switch reader.read(from: socket) {
            case .closed: throw DBusError(name: DBusError.Names.noServer, message: "The bus closed the connection.")
            case .wouldBlock: try socket.wait(for: Int16(POLLIN), until: deadline)
            case .moved: break
            }
        }
    }

    /// Queues `message` for the socket (written at the end of the turn,
    /// or now once `OutgoingBytes.flushBytes` wait).
    func queue(_ message: Message) {
        outgoing.append(message.bytesToSend)
        if outgoing.count >= OutgoingBytes.flushBytes { writeOutgoing() }
    }

    /// Writes what the socket takes; waits for it to be writable if some is left.
    func writeOutgoing() {
        guard isConnected else { return }
        switch outgoing.write(to: socket) {
        case .closed:
            lost()
        case .wouldBlock:
            waitToWrite(true)
        case .moved:
            waitToWrite(false)
        }
    }

    /// Turns the read watch on or off (a loop call only when that changes).
    func keepReading(_ on: Bool) {
        guard let readToken, on != isReading else { return }
        isReading = on
        loop.setEnabled(readToken, on)
    }

    /// Turns the write watch on or off (a loop call only when that changes).
    private func waitToWrite(_ on: Bool) {
        guard let writeToken, on != isWaitingToWrite else { return }
        isWaitingToWrite = on
        loop.setEnabled(writeToken, on)
    }

    /// The socket is readable: reads up to `readAheadBytes` and routes
    /// what is whole, within the turn's batch — whatever the lane holds
    /// (a call it has no room for is refused: `refusalWhenFull`).
    func readSome() {
        guard isConnected else { return }
        readThisTurn = true
        defer { lastReadAt = SystemTime.monotonicNanoseconds }
        var read = 0
        while read < Self.readAheadBytes {
            if routeBuffered() { break }
            switch reader.read(from: socket) {
            case .moved(let count):
                read += count
            case .wouldBlock:
                _ = routeBuffered()
                return
            case .closed:
                _ = routeBuffered()
                lost()
                return
            }
        }
        // The turn's batch is routed: read on in the next turn.
        keepReading(false)
    }

    /// Routes whole messages already read, until none is left or the
    /// turn's batch is routed; returns whether messages may wait (the
    /// batch stopped it).
    func routeBuffered() -> Bool {
        while !early.isEmpty {
            guard routedThisTurn < Self.batch else { return true }
            routedThisTurn += 1
            route(early.removeFirst())
        }
        while isConnected {
            guard routedThisTurn < Self.batch else { return true }
            let bytes: WireBytes
            do {
                guard let next = try reader.next() else { return false }
                bytes = next
            } catch {
                // Nothing after bytes that are not D-Bus can be framed.
                lost()
                return false
            }
            routedThisTurn += 1
            // One whose header is not D-Bus is dropped, never the
            // connection (the bus validates all it passes on).
            guard let message = try? Self.received(bytes, on: socket) else { continue }
            route(message)
        }
        return false
    }

    /// `bytes` as a message, with the Unix fds that came with it: kept for
    /// a reply of the bus daemon itself (its `ProcessFD`), closed at once
    /// for anything else, so that no client can make undod hold its fds.
    static func received(_ bytes: WireBytes, on socket: BusSocket) throws(DBusError) -> Message {
        let message: Message
        do {
            message = try Message(received: bytes)
        } catch {
            // Its fd count unread, no later message's fds can be told apart.
            socket.loseReceivedFDs()
            throw error
        }
        guard message.unixFDCount > 0 else { return message }
        var fds = socket.takeReceivedFDs(message.unixFDCount)
        if message.kind == .methodReturn, message.sender == "org.freedesktop.DBus" {
            message.unixFDs = fds
        } else {
            BusSocket.close(taking: &fds)
        }
        return message
    }

    /// Decides what an incoming message is for. It only queues work for the
    /// loop, at once or, behind a large call, in the lane (`IncomingLanes`).
    func route(_ message: Message) {
        let kind = message.kind
        if kind == .methodCall, message.interface == StandardInterface.peer {
            answerPeer(message)
            return
        }
        let sender = message.sender ?? ""
        let bytes = kind == .methodCall ? message.wireSize : 0
        let held = lanes.mustHold(kind, sender: sender, bytes: bytes)
        let work: () -> Void
        switch kind {
        case .signal:
            let handlers = subscriptions.sorted(by: { $0.key < $1.key })
                .filter { $0.value.match.matches(message) }.map(\.value.handler)
            guard !handlers.isEmpty else { return }
            work = { for handler in handlers { handler(message) } }
        case .methodCall:
            guard let server = objectServer else { return }
            guard held else { return loop.soon { [weak server] in server?.dispatch(message) } }
            // A full lane takes no more large calls (their senders hear why at
            // once); signals and replies are small and never dropped.
            if lanes.mustRefuse(callOf: bytes) {
                return MethodCall(message: message, connection: self).fail(refusalWhenFull(message))
            }
            return holdCall(message, sender: sender, bytes: bytes)
        case .methodReturn, .error:
            let serial = message.replySerial
            guard awaiting[serial] != nil else { return }
            let result: Result<Message, DBusError> = message.error.map { .failure($0) } ?? .success(message)
            if held {
                // Still awaited while it waits in the lane, so that closing
                // the connection meanwhile fails the call (exactly once).
                work = { [weak self] in self?.takeAwaited(serial)?(result) }
            } else {
                let handler = takeAwaited(serial)
                work = { handler?(result) }
            }
        default:
            return
        }
        guard held else { return loop.soon(work) }
        lanes.hold(work, sender: sender, bytes: bytes, since: SystemTime.monotonicNanoseconds)
    }

    /// Puts a method call that must wait at the end of the lane. A large one
    /// is routed as soon as it is the longest held, so that its method's
    /// preparation (`Interface.preparing`) can start; it is then served by
    /// what it was routed to, not routed again (`ObjectServer.serve`).
    private func holdCall(_ message: Message, sender: String, bytes: Int) {
        let early = EarlyRoute()
        let serve = { [weak objectServer] in
            guard let objectServer else { return }
            if let routed = early.routed {
                objectServer.serve(routed, message: message)
            } else {
                objectServer.dispatch(message)
            }
        }
        var preparation: IncomingLanes<() -> Void>.Preparation?
        if bytes >= IncomingLanes<() -> Void>.largeCallBytes {
            preparation = { [weak objectServer] ready in
                guard let objectServer else { return false }
                let routed = objectServer.route(message)
                early.routed = routed
                guard let prepare = routed.prepare else { return false }
                return prepare { prepared in
                    early.routed = RoutedCall(serve: prepared, prepare: nil, exports: routed.exports)
                    ready()
                }
            }
        }
        lanes.hold(serve, sender: sender, bytes: bytes, since: SystemTime.monotonicNanoseconds, prepare: preparation)
    }

    /// Where a held call was routed, once it has been (`holdCall`).
    private final class EarlyRoute {
        var routed: RoutedCall?
    }

    /// Starts the preparation of the longest-held call, if it has one not
    /// started yet (`holdCall`).
    func startPreparing() {
        // Checked first: nothing held is every turn's case, and a lane's
        // mutating call costs an exclusivity check.
        guard !lanes.isEmpty, let (token, prepare) = lanes.takePreparation() else { return }
        if !prepare({ [weak self] in self?.lanes.markReady(token) }) { lanes.markReady(token) }
    }

    /// Answers `org.freedesktop.DBus.Peer`, as libdbus does for every
    /// connection: `Ping` with nothing, `GetMachineId` with this machine's ID.
    private func answerPeer(_ call: Message) {
        guard !call.noReplyExpected else { return }
        let reply: Message?
        switch call.member {
        case "Ping":
            reply = try? call.makeReply([])
        case "GetMachineId":
            reply = try? call.makeReply([.string(Self.machineID)])
        default:
            reply = call.makeErrorReply(.unknownMethod(
                "org.freedesktop.DBus.Peer has no method “\(call.member ?? "")”; it has Ping and GetMachineId."))
        }
        if let reply { send(reply) }
    }

    /// This machine's D-Bus ID (`dbus_get_local_machine_id`).
    private static let machineID: String = {
        guard let id = dbus_get_local_machine_id() else { return "" }
        defer { dbus_free(id) }
        return String(cString: id)
    }()

    /// The handler of the call awaiting reply `serial`, no longer awaited
    /// (its timer removed); nil when it is not awaited any more.
    func takeAwaited(_ serial: UInt32) -> ((Result<Message, DBusError>) -> Void)? {
        guard let awaited = awaiting.removeValue(forKey: serial) else { return nil }
        awaited.timer.map(loop.remove)
        return awaited.handler
    }
}
