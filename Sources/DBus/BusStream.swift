import Loop
import SystemClock
#if canImport(Glibc)
internal import Glibc
#endif

/// The socket under a connection, driven by the loop: whole messages read
/// off it (`MessageReader`) and handed on, a batch a turn; what is sent
/// written once a turn (`OutgoingBytes`), or at once when much waits; and
/// the watches that wake the loop for either. It knows nothing of what a
/// message is for: its connection reads it (`readSome`, `turn`, handing
/// each message to a closure that does not outlive the call: no retain a
/// message) and hears when the bus is gone (`onLost`). Confined to the loop.
final class BusStream {
    /// The most a readable socket is read in one go (8 MiB): reading ahead
    /// is how a small call behind large ones is found (see
    /// `IncomingLanes`); the bound gives the loop back to its other work.
    static let readAheadBytes = 8 << 20
    /// The most messages handed on in one turn.
    static let batch = 256

    private let loop: EventLoop
    private let socket: BusSocket
    private let reader = MessageReader()
    private var outgoing = OutgoingBytes()
    /// The socket's watches on the loop, and whether each is on.
    private var readToken: EventLoop.Token?
    private var writeToken: EventLoop.Token?
    private var isReading = true, isWaitingToWrite = false
    /// Messages read while saying Hello, handed on in the first turn.
    private var early: [Message] = []
    /// How many messages have been handed on this turn.
    private var handedOnThisTurn = 0
    /// Whether the socket is still open.
    private(set) var isOpen = true

    /// Told once when the bus closes the socket or sends what is not D-Bus.
    var onLost: () -> Void = {}

    /// Opens a socket to the bus at `address` (waiting up to `timeout`).
    init(address: String, loop: EventLoop, timeoutMilliseconds: Int) throws(DBusError) {
        self.loop = loop
        socket = try BusSocket.open(address: address, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Sends `hello` on the fresh socket and waits (until `deadline`,
    /// `SystemTime.monotonicNanoseconds`) for its answer; returns the unique
    /// name it gives. Messages that arrive meanwhile are kept for the first
    /// turn.
    func sayHello(_ hello: Message, until deadline: Int64) throws(DBusError) -> String {
        outgoing.append(hello.bytesToSend)
        while !outgoing.isEmpty {
            switch outgoing.write(to: socket) {
            case .closed: throw DBusError(name: DBusError.Names.noServer, message: "The bus closed the connection.")
            case .wouldBlock: try socket.wait(for: Int16(POLLOUT), until: deadline)
            case .moved: break
            }
        }
        while true {
            while let bytes = try reader.next() {
                let message = try Self.received(bytes, on: socket)
                guard message.replySerial == hello.serial else {
                    early.append(message)
                    continue
                }
                if let error = message.error { throw error }
                guard let name = message.argument(0)?.string else {
                    throw .failed("The bus answered Hello without a name.")
                }
                return name
            }
            switch reader.read(from: socket) {
            case .closed: throw DBusError(name: DBusError.Names.noServer, message: "The bus closed the connection.")
            case .wouldBlock: try socket.wait(for: Int16(POLLIN), until: deadline)
            case .moved: break
            }
        }
    }

    /// Puts the socket's watches on the loop: `readable` when there is
    /// something to read (it then calls `readSome`), and the writing of
    /// what waits whenever the socket takes more.
    func watch(readable: @escaping () -> Void) {
        readToken = loop.watch(fd: socket.fd, events: .readable, handler: readable)
        writeToken = loop.watch(fd: socket.fd, events: .writable, enabled: false) { [unowned self] in
            self.writeOutgoing()
        }
    }

    /// Queues `message` (written at the end of the turn, or now once
    /// `OutgoingBytes.flushBytes` wait).
    func send(_ message: Message) {
        outgoing.append(message.bytesToSend)
        if outgoing.count >= OutgoingBytes.flushBytes { writeOutgoing() }
    }

    /// Once a turn, before the loop waits: hands on messages already read
    /// (up to a batch) to `handOn`, writes what was sent, and reads again if
    /// a full batch had stopped reading. Returns whether more messages wait.
    func turn(_ handOn: (Message) -> Void) -> Bool {
        handedOnThisTurn = 0
        let more = handOnBuffered(handOn)
        if !outgoing.isEmpty { writeOutgoing() }
        // Read on whatever waits to be handled: the bus must never queue for us past its limit.
        keepReading(!more)
        return more
    }

    /// Writes out everything queued, waiting for the socket until
    /// `deadline` (`SystemTime.monotonicNanoseconds`).
    func flush(until deadline: Int64) {
        while isOpen, !outgoing.isEmpty {
            switch outgoing.write(to: socket) {
            case .closed: lost()
            case .wouldBlock: if (try? socket.wait(for: Int16(POLLOUT), until: deadline)) == nil { return }
            case .moved: break
            }
        }
    }

    /// Closes the socket, writing what the socket takes at once first.
    func close() {
        if isOpen { _ = outgoing.write(to: socket) }
        shut()
        early.removeAll()
    }

    /// The bus went away: the socket is closed and `onLost` told, once.
    private func lost() {
        guard isOpen else { return }
        shut()
        onLost()
    }

    private func shut() {
        isOpen = false
        for token in [readToken, writeToken] {
            if let token { loop.remove(token) }
        }
        readToken = nil
        writeToken = nil
        outgoing.removeAll()
        socket.close()
    }

    /// Writes what the socket takes; waits for it to be writable if some is left.
    private func writeOutgoing() {
        guard isOpen else { return }
        switch outgoing.write(to: socket) {
        case .closed: lost()
        case .wouldBlock: waitToWrite(true)
        case .moved: waitToWrite(false)
        }
    }

    /// Turns the read watch on or off (a loop call only when that changes).
    private func keepReading(_ on: Bool) {
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

    /// The socket is readable: reads up to `readAheadBytes` and hands on
    /// what is whole to `handOn`, within the turn's batch.
    func readSome(_ handOn: (Message) -> Void) {
        guard isOpen else { return }
        var read = 0
        while read < Self.readAheadBytes {
            if handOnBuffered(handOn) { break }
            switch reader.read(from: socket) {
            case .moved(let count):
                read += count
            case .wouldBlock:
                _ = handOnBuffered(handOn)
                return
            case .closed:
                _ = handOnBuffered(handOn)
                lost()
                return
            }
        }
        // The turn's batch is handed on: read on in the next turn.
        keepReading(false)
    }

    /// Hands on whole messages already read, until none is left or the
    /// turn's batch is; returns whether messages may wait (the batch
    /// stopped it).
    private func handOnBuffered(_ handOn: (Message) -> Void) -> Bool {
        while !early.isEmpty {
            guard handedOnThisTurn < Self.batch else { return true }
            handedOnThisTurn += 1
            handOn(early.removeFirst())
        }
        while isOpen {
            guard handedOnThisTurn < Self.batch else { return true }
            let bytes: WireBytes
            do {
                guard let next = try reader.next() else { return false }
                bytes = next
            } catch {
                // Nothing after bytes that are not D-Bus can be framed.
                lost()
                return false
            }
            handedOnThisTurn += 1
            // One whose header is not D-Bus is dropped, never the
            // connection (the bus validates all it passes on).
            guard let message = try? Self.received(bytes, on: socket) else { continue }
            handOn(message)
        }
        return false
    }

    /// `bytes` as a message, with the Unix fds that came with it: kept for
    /// a reply of the bus daemon itself (its `ProcessFD`), closed at once
    /// for anything else, so that no client can make undod hold its fds.
    private static func received(_ bytes: WireBytes, on socket: BusSocket) throws(DBusError) -> Message {
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
}
