internal import CDBus

/// What undod still asks of libdbus, and its names that do not import.
///
/// libdbus holds no message and no connection of ours: the socket, the
/// handshake, addresses, framing, headers, writing and reading arguments
/// are this package's (ARCHITECTURE.md, "The wire"). It is kept as the
/// reference validator, where it earns its place by being the bus's own
/// reading: it checks every message written here in debug builds, and
/// always one nested deeper than `Message.trustedNesting` (`check`); it
/// validates signatures, and knows where this machine keeps its ID.
enum LibDBus {
    /// libdbus's type codes (`DBUS_TYPE_*` are macros Swift cannot import).
    enum TypeCode {
        static let invalid: Int32 = 0
        static let byte = code("y"), bool = code("b"), int16 = code("n")
        static let uint16 = code("q"), int32 = code("i"), uint32 = code("u")
        static let int64 = code("x"), uint64 = code("t"), double = code("d")
        static let string = code("s"), objectPath = code("o"), signature = code("g")
        static let unixFD = code("h"), array = code("a"), variant = code("v")
        static let structure = code("r"), dictEntry = code("e")

        private static func code(_ c: Unicode.Scalar) -> Int32 { Int32(UInt8(ascii: c)) }
    }

    /// Message types (`DBUS_MESSAGE_TYPE_*`).
    enum MessageType {
        static let methodCall: Int32 = 1, methodReturn: Int32 = 2, error: Int32 = 3, signal: Int32 = 4
    }

    /// Makes libdbus safe to use from the one thread we use it on (and from
    /// any other, should a caller stray). Idempotent.
    static func initialise() {
        _ = dbus_threads_init_default()
    }

    /// Runs `body` with a fresh C error; if it set one, throws it as a Swift
    /// `DBusError` (the C struct shares the name, hence the qualification).
    static func withCError<T>(_ body: (UnsafeMutablePointer<CDBus.DBusError>) -> T) throws(DBusError) -> T {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let result = body(&error)
        if dbus_error_is_set(&error) != 0 {
            throw DBusError(
                name: error.name.map { String(cString: $0) } ?? DBusError.Names.failed,
                message: error.message.map { String(cString: $0) } ?? "libdbus reported an error without text.")
        }
        return result
    }

    /// Checks that libdbus reads `bytes` as one valid message in the wire
    /// format, as the bus would; throws its refusal (`InvalidArgs`) if not.
    static func check(_ bytes: UnsafeRawBufferPointer) throws(DBusError) {
        let raw = try withCError { error in
            dbus_message_demarshal(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), error)
        }
        guard let raw else { throw .failed("Out of memory while checking a D-Bus message.") }
        dbus_message_unref(raw)
    }

    /// Whether `signature` is a valid signature (any number of complete types).
    static func isValidSignature(_ signature: String) -> Bool {
        signature.withCString { dbus_signature_validate($0, nil) } != 0
    }
    /// Whether `signature` is exactly one complete type.
    static func isValidSingleType(_ signature: String) -> Bool {
        signature.withCString { dbus_signature_validate_single($0, nil) } != 0
    }
}
