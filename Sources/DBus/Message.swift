#if canImport(Glibc)
import Glibc
#endif
internal import CDBus

/// One D-Bus message: a method call, a reply, an error or a signal.
///
/// Owns one reference to the libdbus message. Confined to the thread of the
/// loop that made or received it.
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

    /// The libdbus message; one reference is ours.
    let raw: OpaquePointer
    /// Whether a `Connection` has given it its serial (it keeps it if sent again).
    var isNumbered = false
    /// The message in the wire format: the bytes it arrived as, or, for one
    /// made here, what `dbus_message_marshal` writes once asked for
    /// (`marshalled()`). Its arguments are read from these bytes.
    var wireFormat: WireBytes?
    /// For a message that arrived large (`detachedBodyBytes`), the signature
    /// of its body, which `raw` does not hold: `raw` carries its header
    /// alone, and the body is read from `wireFormat` in place.
    private var detachedSignature: String?
    /// What was made for this call off the loop while it waited
    /// (`MethodCall.preparation`).
    var preparation: AnyObject?

    /// Takes over one reference to `raw`.
    init(owning raw: OpaquePointer) {
        self.raw = raw
    }

    deinit {
        dbus_message_unref(raw)
    }

    /// A message as it arrived from the bus, in `bytes`, which it keeps.
    ///
    /// libdbus demarshals (validates and copies) a small one. A large one
    /// (from `detachedBodyBytes`) would cost two more copies of its body
    /// that way (60 MiB each for a huge Push, every page faulted in): only
    /// its header goes to libdbus, and its arguments are read from `bytes`
    /// in place by `WireDecoder`, which checks every bound. The bus has
    /// validated the whole message before passing it on.
    init(received bytes: WireBytes) throws(DBusError) {
        var raw: OpaquePointer?
        if bytes.bytes.count < Self.detachedBodyBytes {
            do {
                raw = try Self.demarshal(bytes.bytes)
            } catch {
                // A message that says it carries Unix fds (which we never
                // take: `BusSocket`) is not whole to libdbus; it is read
                // like a large one, and a method's `h` is then refused.
                guard WireDecoder.header(of: bytes.bytes)?.carriesUnixFDs == true else { throw error }
            }
        }
        if raw == nil {
            guard let header = WireDecoder.header(of: bytes.bytes) else {
                throw .invalidArgs("A message from the bus has a header that is not D-Bus.")
            }
            let headerOnly = WireEncoder.message(type: Int32(header.type), flags: header.flags, serial: header.serial,
                                                 fields: header.fields, arguments: [], bodyBytes: 0)
            raw = try Self.demarshal(headerOnly)
            detachedSignature = header.signature
        }
        guard let raw else { throw .failed("Out of memory while reading a D-Bus message.") }
        self.raw = raw
        wireFormat = bytes
    }

    /// From this size on, a message from the bus reaches libdbus as its
    /// header alone (see `init(received:)`).
    static let detachedBodyBytes = 1 << 20

    /// libdbus's message from the wire-format `bytes`, validated.
    private static func demarshal(_ bytes: UnsafeRawBufferPointer) throws(DBusError) -> OpaquePointer? {
        try LibDBus.withCError { error in
            dbus_message_demarshal(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), error)
        }
    }

    /// The same for bytes in an array.
    private static func demarshal(_ bytes: [UInt8]) throws(DBusError) -> OpaquePointer? {
        let result: Result<OpaquePointer?, DBusError> = bytes.withUnsafeBytes { buffer in
            Result { () throws(DBusError) in try demarshal(buffer) }
        }
        return try result.get()
    }

    /// A method call to `member` of `interface` on `path` at `destination`.
    public static func methodCall(
        destination: String?, path: String, interface: String?, member: String,
        arguments: [DBusValue] = []
    ) throws(DBusError) -> Message {
        guard LibDBus.isValidPath(path) else { throw .invalidArgs("“\(path)” is not a valid object path.") }
        guard LibDBus.isValidMember(member) else { throw .invalidArgs("“\(member)” is not a valid member name.") }
        if let interface, !LibDBus.isValidInterface(interface) {
            throw .invalidArgs("“\(interface)” is not a valid interface name.")
        }
        if let destination, !LibDBus.isValidBusName(destination) {
            throw .invalidArgs("“\(destination)” is not a valid bus name.")
        }
        if arguments.count >= wireEncodedArguments {
            var fields: [(WireEncoder.Field, DBusValue)] = [(.path, .objectPath(path))]
            if let interface { fields.append((.interface, .string(interface))) }
            fields.append((.member, .string(member)))
            if let destination { fields.append((.destination, .string(destination))) }
            return try encoded(LibDBus.MessageType.methodCall, flags: 0, fields: fields, arguments)
        }
        return try bodyFirst(LibDBus.MessageType.methodCall, arguments) { raw in
            (destination.map { dbus_message_set_destination(raw, $0) != 0 } ?? true)
                && dbus_message_set_path(raw, path) != 0
                && (interface.map { dbus_message_set_interface(raw, $0) != 0 } ?? true)
                && dbus_message_set_member(raw, member) != 0
        }
    }

    /// A signal `member` of `interface` from `path`.
    public static func signal(
        path: String, interface: String, member: String, arguments: [DBusValue] = []
    ) throws(DBusError) -> Message {
        guard LibDBus.isValidPath(path), LibDBus.isValidInterface(interface), LibDBus.isValidMember(member) else {
            throw .invalidArgs("“\(interface).\(member)” on “\(path)” is not a valid signal.")
        }
        if arguments.count >= wireEncodedArguments {
            return try encoded(LibDBus.MessageType.signal, flags: WireEncoder.noReplyExpected,
                               fields: [(.path, .objectPath(path)), (.interface, .string(interface)),
                                        (.member, .string(member))], arguments)
        }
        return try bodyFirst(LibDBus.MessageType.signal, arguments) { raw in
            // As dbus_message_new_signal does: nobody answers a signal.
            dbus_message_set_no_reply(raw, 1)
            return dbus_message_set_path(raw, path) != 0
                && dbus_message_set_interface(raw, interface) != 0
                && dbus_message_set_member(raw, member) != 0
        }
    }

    /// A message of `type` with `arguments`, whose header fields `setFields`
    /// sets (returning false when memory runs out) after the arguments are in.
    ///
    /// libdbus rewrites the header's signature field for every argument
    /// appended at the top level, and each rewrite walks every field already
    /// in the header. With the body written into a header that holds nothing
    /// else yet, a message of three or four arguments costs about 40% fewer
    /// instructions (the Pushed signal 4.1 → 2.6 µs, an Apply call 7.9 →
    /// 4.8 µs). The message is the same; only the order of its header fields
    /// differs, which D-Bus leaves free.
    private static func bodyFirst(_ type: Int32, _ arguments: [DBusValue],
                                  setFields: (OpaquePointer) -> Bool) throws(DBusError) -> Message {
        guard let raw = dbus_message_new(type) else { throw .failed("Out of memory while building a D-Bus message.") }
        let message = Message(owning: raw)
        try MessageCoder.append(arguments, to: raw)
        guard setFields(raw) else { throw .failed("Out of memory while building a D-Bus message.") }
        return message
    }

    /// From this many arguments on, a message is written in the wire format
    /// and demarshalled (`WireEncoder`) rather than built through libdbus's
    /// iterators: with fewer, libdbus's own way costs less than validating
    /// the demarshalled message (a `t` reply: 11.5 k instructions against
    /// 20.9 k; three arguments: 46 k against 35 k).
    static let wireEncodedArguments = 3

    /// A message of `type` written in the wire format and handed to libdbus,
    /// which validates it as it validates what it reads from a socket.
    private static func encoded(_ type: Int32, flags: UInt8, fields: [(WireEncoder.Field, DBusValue)],
                                _ arguments: [DBusValue]) throws(DBusError) -> Message {
        let size = try MessageCoder.check(arguments)
        // Serial 1 stands in until `Connection` numbers the message as it sends it.
        let bytes = WireEncoder.message(type: type, flags: flags, serial: 1, fields: fields, arguments: arguments,
                                        bodyBytes: size)
        guard let raw = try demarshal(bytes) else { throw .failed("Out of memory while building a D-Bus message.") }
        return Message(owning: raw)
    }

    /// A new, unsent message with the same header and arguments (libdbus's
    /// `dbus_message_copy`: no serial yet, so it can be sent on its own).
    /// Far cheaper than building the same message again, since libdbus
    /// rewrites the header's signature field for every argument appended at
    /// the top level; for clients that send many alike calls. Nil only when
    /// memory runs out.
    public func copy() -> Message? {
        dbus_message_copy(raw).map { Message(owning: $0) }
    }

    /// A successful reply to this call carrying `arguments`.
    func makeReply(_ arguments: [DBusValue]) throws(DBusError) -> Message {
        guard arguments.count > 1 else {
            // One argument or none: libdbus's own way costs no more.
            guard let raw = dbus_message_new_method_return(self.raw) else {
                throw .failed("Out of memory while building a D-Bus reply.")
            }
            let reply = Message(owning: raw)
            try MessageCoder.append(arguments, to: raw)
            return reply
        }
        let call = raw
        if arguments.count >= Self.wireEncodedArguments {
            var fields: [(WireEncoder.Field, DBusValue)] = [(.replySerial, .uint32(dbus_message_get_serial(call)))]
            if let sender { fields.append((.destination, .string(sender))) }
            return try Self.encoded(LibDBus.MessageType.methodReturn, flags: WireEncoder.noReplyExpected,
                                    fields: fields, arguments)
        }
        // What dbus_message_new_method_return sets, after the body (see bodyFirst).
        return try Self.bodyFirst(LibDBus.MessageType.methodReturn, arguments) { raw in
            dbus_message_set_no_reply(raw, 1)
            return dbus_message_set_reply_serial(raw, dbus_message_get_serial(call)) != 0
                && (dbus_message_get_sender(call).map { dbus_message_set_destination(raw, $0) != 0 } ?? true)
        }
    }

    /// An error reply to this call. An invalid error name becomes `Failed`,
    /// never a crash.
    func makeErrorReply(_ error: DBusError) -> Message? {
        let name = LibDBus.isValidErrorName(error.name) ? error.name : DBusError.Names.failed
        let text = MessageCoder.containsNUL(error.message) ? error.message.replacingNUL() : error.message
        return dbus_message_new_error(raw, name, text).map { Message(owning: $0) }
    }

    /// What kind of message this is.
    public var kind: Kind {
        switch dbus_message_get_type(raw) {
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
        get { dbus_message_get_serial(raw) }
        set { dbus_message_set_serial(raw, newValue) }
    }
    /// The serial of the call this message answers; 0 for none.
    var replySerial: UInt32 { dbus_message_get_reply_serial(raw) }

    /// The object path, if any.
    public var path: String? { dbus_message_get_path(raw).map { String(cString: $0) } }
    /// The interface, if any.
    public var interface: String? { dbus_message_get_interface(raw).map { String(cString: $0) } }
    /// The member (method or signal name), if any.
    public var member: String? { dbus_message_get_member(raw).map { String(cString: $0) } }
    /// The sender's unique name, if any.
    public var sender: String? { dbus_message_get_sender(raw).map { String(cString: $0) } }
    /// The destination, if any.
    public var destination: String? { dbus_message_get_destination(raw).map { String(cString: $0) } }
    /// The error name of an error reply.
    public var errorName: String? { dbus_message_get_error_name(raw).map { String(cString: $0) } }
    /// The signature of the arguments (`""` for none).
    public var signature: String {
        detachedSignature ?? dbus_message_get_signature(raw).map { String(cString: $0) } ?? ""
    }
    /// Whether the sender said it wants no reply.
    public var noReplyExpected: Bool { dbus_message_get_no_reply(raw) != 0 }

    /// Asks the receiver not to reply (for fire-and-forget calls).
    public func setNoReplyExpected() { dbus_message_set_no_reply(raw, 1) }

    /// Asks the bus not to start a service for the destination by D-Bus
    /// activation: the call fails at once where nobody owns the name.
    public func setNoAutoStart() { dbus_message_set_auto_start(raw, 0) }

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
