#if canImport(Glibc)
import Glibc
#endif
internal import CDBus

/// One D-Bus message: a method call, a reply, an error or a signal.
///
/// One that arrived is the bytes it came in, known by its header
/// (`WireHeader`, read once); one built here is the bytes `WireEncoder`
/// wrote, sent as they are. Either way a libdbus message is made of the
/// bytes only if something asks (`raw`). Confined to the thread of the loop
/// that made or received it.
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

    /// The libdbus message, one reference ours: the one libdbus made (an
    /// `Origin.libdbus` message); for one received or written here, made
    /// from its bytes only if something asks (`raw`).
    private var libdbusMessage: OpaquePointer?
    /// Where the message came from, which says where its header is read.
    private let origin: Origin

    /// Where a message came from.
    private enum Origin {
        /// Made by libdbus (nested deeper than `trustedNesting`, or a copy
        /// of such): its header is libdbus's.
        case libdbus
        /// Written here (`WireEncoder`): its bytes are what is sent, and
        /// its serial and flags are set in them.
        case written
        /// From the bus: its bytes as they came.
        case received
    }
    /// Whether a `Connection` has given it its serial (it keeps it if sent again).
    var isNumbered = false
    /// The message in the wire format: the bytes it arrived as, the bytes
    /// `WireEncoder` wrote, or, for one libdbus made, what
    /// `dbus_message_marshal` writes once asked for (`marshalled()`). Its
    /// arguments are read from these bytes.
    var wireFormat: WireBytes?
    /// The header as read from `wireFormat`: at once for a message from
    /// the bus, on first use for one written here; nil for one libdbus made.
    private var header: WireHeader?
    /// The signature's bytes, once an argument has been read (a message's
    /// arguments do not change once it is made).
    var signatureBytes: [UInt8]?
    /// What was made for this call off the loop while it waited
    /// (`MethodCall.preparation`).
    var preparation: AnyObject?
    /// The Unix fds that came with it (only the bus daemon's replies keep
    /// theirs: `Connection.received`); closed with the message unless taken.
    var unixFDs: [Int32] = []

    /// Takes over one reference to `raw`.
    init(owning raw: OpaquePointer) {
        libdbusMessage = raw
        origin = .libdbus
    }

    /// A message written here in the wire format (`encoded`).
    private init(written bytes: WireBytes) {
        origin = .written
        wireFormat = bytes
    }

    deinit {
        if let libdbusMessage { dbus_message_unref(libdbusMessage) }
        if !unixFDs.isEmpty { BusSocket.close(taking: &unixFDs) }
    }

    /// How many Unix fds the header says came with the message.
    var unixFDCount: Int { Int(header?.unixFDCount ?? 0) }

    /// The first Unix fd that came with this reply of the bus daemon (the
    /// `ProcessFD` of `GetConnectionCredentials`, the one handle such a
    /// reply carries), now the caller's; nil when none came.
    public func takeUnixFD() -> ReceivedDescriptor? {
        guard !unixFDs.isEmpty else { return nil }
        return ReceivedDescriptor(taking: unixFDs.removeFirst())
    }

    /// The libdbus message. One received or written here gets it on first
    /// use, made from its bytes (which libdbus then validates); routing,
    /// answering, reading arguments and sending never ask for it.
    var raw: OpaquePointer {
        if let libdbusMessage { return libdbusMessage }
        // `encoded` checked the values, and libdbus accepted such bytes in
        // every debug build; the bus validated what it passed on. Should
        // libdbus refuse them anyway (or memory run out), an empty message
        // of the same type stands in (its fields read as absent) rather
        // than the process ending.
        guard let bytes = wireFormat?.bytes,
              let made = madeByLibDBus(from: bytes) ?? dbus_message_new(Int32(bytes[1])) else {
            fatalError("Out of memory while reading a D-Bus message.")
        }
        libdbusMessage = made
        return made
    }

    /// libdbus's message of `bytes`. A large one from the bus (from
    /// `detachedBodyBytes`) gets its header alone: the whole would cost two
    /// more copies of its body (60 MiB each for a huge Push, every page
    /// faulted in), and its arguments are read from the bytes in place
    /// anyway. So does one that says it carries Unix fds (which we never
    /// take: `BusSocket`), which is not whole to libdbus.
    private func madeByLibDBus(from bytes: UnsafeRawBufferPointer) -> OpaquePointer? {
        guard origin == .received, bytes.count >= Self.detachedBodyBytes || header?.carriesUnixFDs == true else {
            return (try? Self.demarshal(bytes)) ?? nil
        }
        guard let header, let headerOnly = try? WireEncoder.message(type: Int32(header.type), flags: header.flags,
                                                                   serial: header.serial, fields: header.fields,
                                                                   arguments: [], bodyBytes: 0) else { return nil }
        return withExtendedLifetime(headerOnly) { (try? Self.demarshal(headerOnly.bytes)) ?? nil }
    }

    /// The bytes `Connection` sends: as written here, or as libdbus
    /// marshals its message (with the serial it was given); nil when memory
    /// runs out.
    var bytesToSend: WireBytes? {
        origin == .written ? wireFormat : WireBytes(marshalling: raw)
    }

    /// A message as it arrived from the bus, in `bytes`, which it keeps.
    ///
    /// Only its header is read now (`WireHeader`): the bus validated the
    /// whole message before passing it on, its arguments are read from
    /// `bytes` in place by `WireDecoder`, which checks every bound, and
    /// libdbus, whose reading of a small call (validating every field again,
    /// with allocations) cost more than all else undod does for a `Ping`,
    /// reads it only if something asks (`raw`). Throws when the header is
    /// not D-Bus.
    init(received bytes: WireBytes) throws(DBusError) {
        guard let header = WireHeader(reading: bytes.bytes) else {
            throw .invalidArgs("A message from the bus has a header that is not D-Bus.")
        }
        origin = .received
        self.header = header
        wireFormat = bytes
    }

    /// From this size on, a message from the bus reaches libdbus as its
    /// header alone, if it reaches it at all (see `raw`).
    static let detachedBodyBytes = 1 << 20

    /// libdbus's message from the wire-format `bytes`, validated.
    private static func demarshal(_ bytes: UnsafeRawBufferPointer) throws(DBusError) -> OpaquePointer? {
        try LibDBus.withCError { error in
            dbus_message_demarshal(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), error)
        }
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
    /// goes). What
    /// it would refuse cannot get here: `MessageCoder.measure` has checked
    /// every value (strings, paths, signatures, array and dictionary types,
    /// sizes, nesting), the header's names were checked by the builders, and
    /// the body's signature is checked for length as it is written
    /// (`WireEncoder.message`). Every debug build
    /// (every test run) still has libdbus validate each message written; a
    /// message nested deeper than `trustedNesting`, which D-Bus limits per
    /// signature, is validated always.
    private static func encoded(_ type: Int32, flags: UInt8, fields: WireEncoder.Fields,
                                _ arguments: [DBusValue]) throws(DBusError) -> Message {
        let (size, deepest) = try MessageCoder.measure(arguments)
        // Serial 1 stands in until `Connection` numbers the message as it sends it.
        let bytes = try WireEncoder.message(type: type, flags: flags, serial: 1, fields: fields, arguments: arguments,
                                            bodyBytes: size)
        guard deepest <= trustedNesting else {
            let raw = try withExtendedLifetime(bytes) { () throws(DBusError) in try demarshal(bytes.bytes) }
            guard let raw else { throw .failed("Out of memory while building a D-Bus message.") }
            return Message(owning: raw)
        }
        assert(withExtendedLifetime(bytes) { libdbusAccepts(bytes.bytes) }, "WireEncoder wrote a message libdbus refuses")
        return Message(written: bytes)
    }

    /// How deep a message's containers may nest and still be sent without
    /// libdbus validating it: D-Bus allows 32 arrays and 32 structs in one
    /// signature, and no signature nests deeper than the values do.
    static let trustedNesting = 32

    /// Whether libdbus reads `bytes` as a valid message (debug builds check
    /// every message written here with it).
    private static func libdbusAccepts(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let raw = try? demarshal(bytes) else { return false }
        dbus_message_unref(raw)
        return true
    }

    /// A new, unsent message with the same header and arguments (libdbus's
    /// `dbus_message_copy`: no serial yet, so it can be sent on its own).
    /// Far cheaper than building the same message again, since libdbus
    /// rewrites the header's signature field for every argument appended at
    /// the top level; for clients that send many alike calls. Nil only when
    /// memory runs out.
    public func copy() -> Message? {
        guard origin == .written, let bytes = wireFormat?.bytes else {
            return dbus_message_copy(raw).map { Message(owning: $0) }
        }
        return Message(written: WireBytes(copying: bytes))
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
        switch origin == .libdbus ? dbus_message_get_type(raw) : Int32(wireFormat?.bytes[1] ?? 0) {
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
        get {
            guard bytesHoldSerialAndFlags, let wireFormat else { return dbus_message_get_serial(raw) }
            return wireFormat.word(at: 8)
        }
        set {
            changeInLibDBusIfReceived()
            if let libdbusMessage { dbus_message_set_serial(libdbusMessage, newValue) }
            if origin == .written { wireFormat?.storeWord(newValue, at: 8) }
        }
    }

    /// Whether the serial and flags are read from the bytes: always for a
    /// message written here (they are set in them); for one received, until
    /// something changes them (then libdbus's message holds them: the bytes,
    /// perhaps lent, are never changed, and `bytesToSend` marshals `raw`).
    private var bytesHoldSerialAndFlags: Bool {
        origin == .written || (origin == .received && libdbusMessage == nil)
    }

    /// Makes libdbus's message of a received one before it is changed.
    private func changeInLibDBusIfReceived() {
        if origin == .received { _ = raw }
    }
    /// The serial of the call this message answers; 0 for none.
    var replySerial: UInt32 {
        readsHeader ? header?.fields.replySerial ?? 0 : dbus_message_get_reply_serial(raw)
    }

    /// The object path, if any.
    public var path: String? { readsHeader ? header?.fields.path : Self.text(dbus_message_get_path(raw)) }
    /// The interface, if any.
    public var interface: String? {
        readsHeader ? header?.fields.interface : Self.text(dbus_message_get_interface(raw))
    }
    /// The member (method or signal name), if any.
    public var member: String? { readsHeader ? header?.fields.member : Self.text(dbus_message_get_member(raw)) }
    /// The sender's unique name, if any.
    public var sender: String? { readsHeader ? header?.fields.sender : Self.text(dbus_message_get_sender(raw)) }
    /// The destination, if any.
    public var destination: String? {
        readsHeader ? header?.fields.destination : Self.text(dbus_message_get_destination(raw))
    }
    /// The error name of an error reply.
    public var errorName: String? {
        readsHeader ? header?.fields.errorName : Self.text(dbus_message_get_error_name(raw))
    }
    /// The signature of the arguments (`""` for none).
    public var signature: String {
        readsHeader ? header?.signature ?? "" : Self.text(dbus_message_get_signature(raw)) ?? ""
    }

    /// Whether the header is read from the bytes (`header`, read once for
    /// one written here): a message received or written here. One libdbus
    /// made has its header in libdbus. Each field is then read where it
    /// is, with no copy of the whole header.
    private var readsHeader: Bool {
        guard origin != .libdbus else { return false }
        if header == nil, let bytes = wireFormat?.bytes {
            header = WireHeader(reading: bytes)
        }
        return true
    }

    /// A header string libdbus gives, as a Swift string.
    private static func text(_ text: UnsafePointer<CChar>?) -> String? {
        text.map { String(cString: $0) }
    }
    /// Whether the sender said it wants no reply.
    public var noReplyExpected: Bool {
        guard bytesHoldSerialAndFlags, let bytes = wireFormat?.bytes else { return dbus_message_get_no_reply(raw) != 0 }
        return bytes[2] & WireEncoder.noReplyExpected != 0
    }

    /// Asks the receiver not to reply (for fire-and-forget calls).
    public func setNoReplyExpected() {
        changeInLibDBusIfReceived()
        if let libdbusMessage { dbus_message_set_no_reply(libdbusMessage, 1) }
        if origin == .written { wireFormat?.setBits(WireEncoder.noReplyExpected, at: 2) }
    }

    /// Asks the bus not to start a service for the destination by D-Bus
    /// activation: the call fails at once where nobody owns the name.
    public func setNoAutoStart() {
        changeInLibDBusIfReceived()
        if let libdbusMessage { dbus_message_set_auto_start(libdbusMessage, 0) }
        if origin == .written { wireFormat?.setBits(WireEncoder.noAutoStart, at: 2) }
    }

    /// For an error reply, the error it carries; nil otherwise.
    public var error: DBusError? {
        guard kind == .error else { return nil }
        return DBusError(name: errorName ?? DBusError.Names.failed, message: arguments.first?.string ?? "", sender: sender)
    }
}

extension String {
    /// The string with NUL characters replaced, for text that must go to C.
    func replacingNUL() -> String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0 == "\0" ? "\u{FFFD}" : $0 }))
    }
}
