/// One D-Bus message: a method call, a reply, an error or a signal.
///
/// A message is its bytes in the wire format and nothing else: the bytes
/// it arrived in (`Message(received:)`) or the bytes `WireEncoder` wrote.
/// Its header is read from them by `WireHeader` (at once for one that
/// arrived, on first use for one written here), its arguments by
/// `WireDecoder`. libdbus never holds a message of ours: it only checks
/// bytes (`LibDBus`, and ARCHITECTURE.md's "The wire" says who owns
/// what). Confined to the thread of the loop that made or received it.
public final class Message {
    /// What a message is.
    public enum Kind: Sendable, Equatable {
        /// A call that may expect a reply.
        case methodCall
        /// A successful reply.
        case methodReturn
        /// An error reply.
        case error
        /// A broadcast or unicast signal.
        case signal
        /// Anything else a future bus might send.
        case other
    }

    /// Whether a `Connection` has given it its serial (it keeps it if sent again).
    var isNumbered = false
    /// The message in the wire format: the bytes it arrived as, or the
    /// bytes `WireEncoder` wrote (or a copy of those it arrived as, once
    /// something changed it: `ownBytes`). Its header and arguments are read
    /// from these bytes.
    private(set) var wireFormat: WireBytes
    /// Whether `wireFormat` may be changed: bytes written here, or a copy;
    /// never the bytes as they came (perhaps lent, `LargeBufferLender`).
    private var ownsBytes: Bool
    /// The header as read from `wireFormat`: at once for a message from
    /// the bus, on first use for one written here.
    private var readHeader: WireHeader?
    /// The signature's bytes, once an argument has been read (a message's
    /// arguments do not change once it is made).
    var signatureBytes: [UInt8]?
    /// The Unix fds that came with it (only the bus daemon's replies keep
    /// theirs: `Connection.received`); closed with the message unless taken.
    var unixFDs: [Int32] = []

    /// A message written here in the wire format (`encoded`).
    private init(written bytes: WireBytes) {
        wireFormat = bytes
        ownsBytes = true
    }

    deinit {
        if !unixFDs.isEmpty { BusSocket.close(taking: &unixFDs) }
    }

    /// How many Unix fds the header says came with the message.
    var unixFDCount: Int {
        readHeaderOnce()
        return Int(readHeader?.unixFDCount ?? 0)
    }

    /// The first Unix fd that came with this reply of the bus daemon (the
    /// `ProcessFD` of `GetConnectionCredentials`, the one handle such a
    /// reply carries), now the caller's; nil when none came.
    public func takeUnixFD() -> ReceivedDescriptor? {
        guard !unixFDs.isEmpty else { return nil }
        return ReceivedDescriptor(taking: unixFDs.removeFirst())
    }

    /// The bytes `Connection` sends.
    var bytesToSend: WireBytes { wireFormat }

    /// A message as it arrived from the bus, in `bytes`, which it keeps.
    ///
    /// Only its header is read now (`WireHeader`), which checks every field
    /// it reads; its arguments are read from `bytes` in place by
    /// `WireDecoder`, which checks every bound, when something asks.
    /// libdbus's reading of a small call (validating every field again,
    /// with allocations) cost more than all else undod does for a `Ping`.
    /// Throws when the header is not D-Bus.
    init(received bytes: WireBytes) throws(DBusError) {
        guard let header = WireHeader(reading: bytes.bytes) else {
            throw .invalidArgs("A message from the bus has a header that is not D-Bus.")
        }
        readHeader = header
        wireFormat = bytes
        ownsBytes = false
    }

    /// Reads the header of a message written here on first use (one
    /// received was read as it came). Each field is then read where it is
    /// (`readHeader?.fields.…`): a getter returning the whole header would
    /// copy it, every string retained and released, at every field read.
    @inline(__always)
    private func readHeaderOnce() {
        guard readHeader == nil else { return }
        // Bytes written here always hold a header `WireHeader` reads (the
        // encoder wrote what it reads); should one not, it reads as empty.
        readHeader = WireHeader(reading: wireFormat.bytes) ?? WireHeader.empty
    }

    /// Makes the bytes this message's own before they are changed: those
    /// it arrived in are left as they came.
    private func ownBytes() {
        guard !ownsBytes else { return }
        wireFormat = WireBytes(copying: wireFormat.bytes)
        ownsBytes = true
    }

    /// A method call to `member` of `interface` on `path` at `destination`.
    public static func methodCall(
        destination: String?, path: String, interface: String?, member: String,
        arguments: [DBusValue] = []
    ) throws(DBusError) -> Message {
        guard DBusSyntax.isObjectPath(path) else { throw .invalidArgs("“\(path)” is not a valid object path.") }
        guard DBusSyntax.isMemberName(member) else { throw .invalidArgs("“\(member)” is not a valid member name.") }
        if let interface, !DBusSyntax.isInterfaceName(interface) {
            throw .invalidArgs("“\(interface)” is not a valid interface name.")
        }
        if let destination, !DBusSyntax.isBusName(destination) {
            throw .invalidArgs("“\(destination)” is not a valid bus name.")
        }
        return try encoded(LibDBus.MessageType.methodCall, flags: 0,
                           fields: .init(path: path, interface: interface, member: member, destination: destination),
                           arguments)
    }

    /// A signal `member` of `interface` from `path`.
    public static func signal(
        path: String, interface: String, member: String, arguments: [DBusValue] = []
    ) throws(DBusError) -> Message {
        guard DBusSyntax.isObjectPath(path), DBusSyntax.isInterfaceName(interface), DBusSyntax.isMemberName(member) else {
            throw .invalidArgs("“\(interface).\(member)” on “\(path)” is not a valid signal.")
        }
        // As dbus_message_new_signal does: nobody answers a signal.
        return try encoded(LibDBus.MessageType.signal, flags: WireEncoder.noReplyExpected,
                           fields: .init(path: path, interface: interface, member: member), arguments)
    }

    /// A message of `type` written in the wire format (`WireEncoder`), its
    /// serial to be set as it is sent.
    ///
    /// libdbus is not asked to read it back: its validation of a message
    /// (every header field's signature checked with allocations) cost more
    /// than everything else of a reply, and was a large share of an undo's
    /// `Apply` call and `UndoFocused` reply (BENCHMARKS.md, where the time
    /// goes). What it would refuse cannot get here: `MessageCoder.measure`
    /// has checked every value (strings, paths, signatures, array and
    /// dictionary types, sizes, nesting), the header's names were checked by
    /// the builders, and the body's signature is checked for length as it is
    /// written (`WireEncoder.message`). Every debug build (every test run)
    /// still has libdbus check each message written; one nested deeper than
    /// `trustedNesting`, where D-Bus's limits are per signature and subtle,
    /// is checked by libdbus always and refused if it says no.
    private static func encoded(_ type: Int32, flags: UInt8, fields: WireEncoder.Fields,
                                _ arguments: [DBusValue]) throws(DBusError) -> Message {
        let (size, deepest) = try MessageCoder.measure(arguments)
        // Serial 1 stands in until `Connection` numbers the message as it sends it.
        let bytes = try WireEncoder.message(type: type, flags: flags, serial: 1, fields: fields, arguments: arguments,
                                            bodyBytes: size)
        if deepest > trustedNesting {
            try withExtendedLifetime(bytes) { () throws(DBusError) in try LibDBus.check(bytes.bytes) }
        } else {
            assert(withExtendedLifetime(bytes) { (try? LibDBus.check(bytes.bytes)) != nil },
                   "WireEncoder wrote a message libdbus refuses")
        }
        return Message(written: bytes)
    }

    /// How deep a message's containers may nest and still be sent without
    /// libdbus checking it: D-Bus allows 32 arrays and 32 structs in one
    /// signature, and no signature nests deeper than the values do.
    static let trustedNesting = 32

    /// A new, unsent message with the same header and arguments, in bytes
    /// of its own (no serial yet, so it can be sent on its own): far
    /// cheaper than building the same message again, for clients that send
    /// many alike calls.
    public func copy() -> Message {
        Message(written: WireBytes(copying: wireFormat.bytes))
    }

    /// A successful reply to this call carrying `arguments`.
    func makeReply(_ arguments: [DBusValue]) throws(DBusError) -> Message {
        try Self.encoded(LibDBus.MessageType.methodReturn, flags: WireEncoder.noReplyExpected,
                         fields: .init(replySerial: serial, destination: sender), arguments)
    }

    /// An error reply to this call. An invalid error name becomes `Failed`,
    /// never a crash.
    func makeErrorReply(_ error: DBusError) -> Message? {
        let name = DBusSyntax.isErrorName(error.name) ? error.name : DBusError.Names.failed
        let text = MessageCoder.containsNUL(error.message) ? error.message.replacingNUL() : error.message
        return try? Self.encoded(LibDBus.MessageType.error, flags: WireEncoder.noReplyExpected,
                                 fields: .init(errorName: name, replySerial: serial, destination: sender), [.string(text)])
    }

    /// What kind of message this is.
    public var kind: Kind {
        switch Int32(wireFormat.bytes[1]) {
        case LibDBus.MessageType.methodCall: .methodCall
        case LibDBus.MessageType.methodReturn: .methodReturn
        case LibDBus.MessageType.error: .error
        case LibDBus.MessageType.signal: .signal
        default: .other
        }
    }

    /// The serial its sender gave it (for one made here, what `Connection`
    /// numbered it; 0 before).
    var serial: UInt32 {
        get { wireFormat.word(at: 8) }
        set {
            ownBytes()
            wireFormat.storeWord(newValue, at: 8)
        }
    }

    /// The serial of the call this message answers; 0 for none.
    var replySerial: UInt32 {
        readHeaderOnce()
        return readHeader?.fields.replySerial ?? 0
    }
    /// The object path, if any.
    public var path: String? {
        readHeaderOnce()
        return readHeader?.fields.path
    }
    /// The interface, if any.
    public var interface: String? {
        readHeaderOnce()
        return readHeader?.fields.interface
    }
    /// The member (method or signal name), if any.
    public var member: String? {
        readHeaderOnce()
        return readHeader?.fields.member
    }
    /// The sender's unique name, if any.
    public var sender: String? {
        readHeaderOnce()
        return readHeader?.fields.sender
    }
    /// The destination, if any.
    public var destination: String? {
        readHeaderOnce()
        return readHeader?.fields.destination
    }
    /// The error name of an error reply.
    public var errorName: String? {
        readHeaderOnce()
        return readHeader?.fields.errorName
    }
    /// The signature of the arguments (`""` for none).
    public var signature: String {
        readHeaderOnce()
        return readHeader?.signature ?? ""
    }

    /// Whether the sender said it wants no reply.
    public var noReplyExpected: Bool {
        wireFormat.bytes[2] & WireEncoder.noReplyExpected != 0
    }

    /// Asks the receiver not to reply (for fire-and-forget calls).
    public func setNoReplyExpected() {
        ownBytes()
        wireFormat.setBits(WireEncoder.noReplyExpected, at: 2)
    }

    /// Asks the bus not to start a service for the destination by D-Bus
    /// activation: the call fails at once where nobody owns the name.
    public func setNoAutoStart() {
        ownBytes()
        wireFormat.setBits(WireEncoder.noAutoStart, at: 2)
    }

    /// For an error reply, the error it carries; nil otherwise.
    public var error: DBusError? {
        guard kind == .error else { return nil }
        return DBusError(name: errorName ?? DBusError.Names.failed, message: argument(0)?.string ?? "", sender: sender)
    }
}

extension String {
    /// The string with NUL characters replaced, for text that must go to C.
    func replacingNUL() -> String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0 == "\0" ? "\u{FFFD}" : $0 }))
    }
}
