internal import CDBus
public import Loop
public import ProcessEnvironment
public import SystemClock
#if canImport(Glibc)
internal import Glibc
#endif

/// A connection to a message bus, driven by an `EventLoop`.
///
/// Confined to the loop's thread. Calls out never block the loop: each waits
/// in `awaiting`, by its serial, with a timer of its own, and its reply
/// handler runs on the loop. Incoming method calls go to the connection's
/// `ObjectServer`, incoming signals to the subscriptions that match them,
/// replies to the calls that await them.
///
/// The socket is its own (`BusSocket`): it reads whole messages
/// (`MessageReader`), keeps each in the bytes it came in
/// (`Message(received:)`: its header read by `WireHeader`, its arguments,
/// when asked, by `WireDecoder`), and writes what it sends once a turn
/// (`OutgoingBytes`). What the bus passes on it has validated; our readers
/// check every bound all the same. libdbus's transport read 2 KiB a call
/// and copied every message out of its buffer; a huge call cost it 150 ms
/// before undod saw it (BENCHMARKS.md). It numbers every message it sends,
/// so the serials of calls awaiting replies never repeat, and answers
/// `org.freedesktop.DBus.Peer` itself, as libdbus did.
public final class Connection {
    /// The loop that drives this connection.
    public let loop: EventLoop
    /// This connection's unique name on the bus (`:1.42`).
    public let uniqueName: String
    /// Whether the connection is still open.
    public internal(set) var isConnected = true
    /// Called once when the bus goes away (not when `close` is called).
    public var onDisconnect: (() -> Void)?
    /// The answer to a method call that would wait in a full lane (see
    /// `IncomingLanes`): the connection keeps reading its socket whatever
    /// it holds, so that the bus never queues for it past its limit and
    /// drops what it sends (a `NameOwnerChanged`, an `Apply`'s reply);
    /// such a call is refused at once instead. Signals and replies are
    /// always kept. undod answers `Busy`.
    public var refusalWhenFull: (Message) -> DBusError = { _ in
        DBusError(name: DBusError.Names.limitsExceeded,
                  message: "Too many large calls are waiting to be handled; send this one again in a moment.")
    }

    /// The socket, read and written.
    private let stream: BusStream
    /// Routes and serves every incoming method call; set by `ObjectServer`.
    weak var objectServer: ObjectServer?
    private var workToken: EventLoop.Token?
    private var afterTurnToken: EventLoop.Token?
    /// Incoming messages waiting behind large calls.
    let held: HeldMessages
    /// The signal subscriptions, by number (`Connection+Signals`).
    var subscriptions: [Int: (match: SignalMatch, handler: (Message) -> Void)] = [:]
    /// The calls sent and not answered yet.
    var awaiting: AwaitedReplies
    /// The serial of the next message sent; 0 is skipped.
    private var nextSerial: UInt32 = 1
    /// The number of the next subscription.
    var nextSubscription = 1
    private(set) var closed = false

    /// How long connecting and saying Hello may take.
    static let helloTimeoutMilliseconds = 25_000

    /// Opens a private connection to the bus at `address` and says Hello.
    /// Waits for the bus (up to 25 s): meant for start-up.
    public init(address: String, loop: EventLoop) throws(DBusError) {
        LibDBus.initialise()
        self.loop = loop
        awaiting = AwaitedReplies(loop: loop)
        held = HeldMessages(loop: loop)
        loop.assertInLoop()
        let deadline = SystemTime.monotonicNanoseconds + Int64(Self.helloTimeoutMilliseconds) * 1_000_000
        stream = try BusStream(address: address, loop: loop, timeoutMilliseconds: Self.helloTimeoutMilliseconds)
        let hello = try Message.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "Hello")
        hello.serial = nextSerial
        hello.isNumbered = true
        nextSerial += 1
        uniqueName = try stream.sayHello(hello, until: deadline)
        install()
    }

    /// Opens a connection to the session bus: the one `environment`'s
    /// `DBUS_SESSION_BUS_ADDRESS` names, else `$XDG_RUNTIME_DIR/bus` where
    /// that socket exists (as sd-bus and GLib clients do).
    public static func session(loop: EventLoop, environment: Environment) throws(DBusError) -> Connection {
        guard let address = sessionAddress(in: environment) else {
            throw DBusError(name: DBusError.Names.badAddress, message: "No session bus: DBUS_SESSION_BUS_ADDRESS "
                + "is not set, and there is no socket at $XDG_RUNTIME_DIR/bus.")
        }
        return try Connection(address: address, loop: loop)
    }

    /// The session bus's address in `environment`: `DBUS_SESSION_BUS_ADDRESS`,
    /// else `unix:path=$XDG_RUNTIME_DIR/bus` where that is a socket; nil
    /// when there is neither.
    public static func sessionAddress(in environment: Environment) -> String? {
        if let address = environment.nonEmpty("DBUS_SESSION_BUS_ADDRESS") { return address }
        guard let runtime = environment.nonEmpty("XDG_RUNTIME_DIR"), runtime.hasPrefix("/") else { return nil }
        let path = (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/bus"
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return nil }
        return "unix:path=" + escapedAddressValue(path)
    }

    /// `value` as a D-Bus address value, escaped by libdbus
    /// (`dbus_address_escape_value`: bytes outside `[-0-9A-Za-z_/.\\*]` as `%XX`).
    static func escapedAddressValue(_ value: String) -> String {
        guard let escaped = dbus_address_escape_value(value) else { return value }
        defer { dbus_free(escaped) }
        return String(cString: escaped)
    }

    deinit {
        teardown()
    }

    /// Writes out every message still queued, waiting for the socket (up to
    /// 25 s; for a client about to close, so that what it sent last is not
    /// lost).
    public func flush() {
        loop.assertInLoop()
        stream.flush(until: SystemTime.monotonicNanoseconds + Int64(Self.helloTimeoutMilliseconds) * 1_000_000)
    }

    /// Closes the connection. Pending calls fail with `Disconnected`.
    public func close() {
        loop.assertInLoop()
        teardown()
    }

    // MARK: Sending

    /// Sends `message` without waiting for anything (written at the end of
    /// the turn, or at once when much waits).
    public func send(_ message: Message) {
        loop.assertInLoop()
        guard isConnected else { return }
        number(message)
        stream.send(message)
    }

    /// A call's timeout that sets no timer: it waits for its reply, or the
    /// bus's word that the peer left, or the connection's closing.
    public static let untilAnswered = Int.max

    /// Sends a method call and calls `handler` on the loop with the reply, an
    /// error reply, or a local error (timeout: `NoReply`; lost bus:
    /// `Disconnected`). Never blocks. A timeout under 0 means 25 s, libdbus's
    /// default; `untilAnswered`, none.
    public func call(_ message: Message, timeoutMilliseconds: Int,
                     reply handler: @escaping (Result<Message, DBusError>) -> Void) {
        loop.assertInLoop()
        guard isConnected else {
            loop.soon { handler(.failure(Self.closedError)) }
            return
        }
        let serial = number(message)
        stream.send(message)
        let milliseconds = timeoutMilliseconds < 0 ? 25_000 : timeoutMilliseconds
        let timer = milliseconds == Self.untilAnswered ? nil : loop.schedule(afterMilliseconds: milliseconds) {
            [unowned self] in
            // Taken out first: the handler may send another call.
            guard let handler = self.awaiting.timedOut(serial) else { return }
            handler(.failure(DBusError(name: DBusError.Names.noReply, message: "No reply came within \(milliseconds) ms.")))
        }
        awaiting.add(serial, timer: timer, handler: handler)
    }

    /// Gives `message` the next serial unless it has one from this
    /// connection already; returns its serial.
    @discardableResult
    private func number(_ message: Message) -> UInt32 {
        if !message.isNumbered {
            message.isNumbered = true
            message.serial = nextSerial
            nextSerial = nextSerial == .max ? 1 : nextSerial + 1
        }
        return message.serial
    }

    /// What a call on a closed connection gets.
    static let closedError = DBusError(name: DBusError.Names.disconnected,
                                       message: "The connection to the bus is closed.")

    /// Sends a method call and runs the loop until its reply comes. For
    /// command-line tools and tests; never call it from a handler.
    public func callAndWait(_ message: Message, timeoutMilliseconds: Int = 25_000) throws(DBusError) -> Message {
        var result: Result<Message, DBusError>?
        call(message, timeoutMilliseconds: timeoutMilliseconds) { result = $0 }
        loop.run(until: { result != nil }, timeoutMilliseconds: timeoutMilliseconds + 5_000)
        switch result {
        case .success(let reply): return reply
        case .failure(let error): throw error
        case nil: throw DBusError(name: DBusError.Names.noReply, message: "No reply within \(timeoutMilliseconds) ms.")
        }
    }

    /// Calls a method and waits for its reply arguments (see `callAndWait`).
    public func callAndWait(
        destination: String, path: String, interface: String, member: String,
        arguments: [DBusValue] = [], timeoutMilliseconds: Int = 25_000
    ) throws(DBusError) -> [DBusValue] {
        let message = try Message.methodCall(destination: destination, path: path, interface: interface,
                                             member: member, arguments: arguments)
        return try callAndWait(message, timeoutMilliseconds: timeoutMilliseconds).arguments
    }

    // MARK: The loop

    private func install() {
        stream.onLost = { [unowned self] in self.lost() }
        stream.watch { [unowned self] in self.readable() }
        workToken = loop.addWorkHook { [unowned self] in self.dispatchSome() }
        afterTurnToken = loop.addAfterTurnHook { [unowned self] in !self.closed && self.held.release() }
    }

    private func teardown() {
        guard !closed else { return }
        closed = true
        isConnected = false
        for token in [workToken, afterTurnToken] {
            if let token { loop.remove(token) }
        }
        held.removeAll()
        stream.close()
        awaiting.failAll(Self.closedError)
    }

    /// The bus went away (or sent what is not D-Bus): fails what awaits a
    /// reply and tells `onDisconnect`, once.
    private func lost() {
        guard isConnected else { return }
        isConnected = false
        awaiting.failAll(Self.closedError)
        loop.soon { [weak self] in self?.onDisconnect?() }
    }

    /// The socket is readable: what is whole is routed (`BusStream.readSome`).
    private func readable() {
        stream.readSome { route($0) }
        held.socketWasRead()
    }

    /// Once a turn, before the loop waits: routes messages already read (up
    /// to a batch) and writes what was sent (`BusStream.turn`), and starts
    /// the preparation of a held call. Returns whether more waits.
    private func dispatchSome() -> Bool {
        guard !closed else { return false }
        let more = stream.turn { route($0) }
        held.startPreparing()
        return held.mayGo || more
    }
}
