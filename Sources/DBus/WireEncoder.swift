/// Writes a whole D-Bus message — header and body — in the wire format
/// (little-endian): every message undod and its clients build
/// (`Message.methodCall`, `signal`, replies) is sent as these bytes.
///
/// Why: libdbus rewrites the header's signature field each time an argument
/// is appended at the top level, and every rewrite walks the whole header
/// (an `Apply` call with its `aay`: about 107 k instructions built through
/// `DBusMessageIter`); reading bytes back into a libdbus message validates
/// them, which for a small reply cost more than the rest of it. What makes
/// the bytes valid is checked before (`MessageCoder.measure`, the builders'
/// name checks, the signature's length in `Message.encoded`), and every
/// debug build has libdbus validate each message written here.
///
/// Values must have passed `MessageCoder.validate` first.
struct WireEncoder {
    /// The bytes written so far; offsets (and so alignment) count from the
    /// start of the message.
    private(set) var bytes: [UInt8] = []

    /// The header field codes of the D-Bus specification.
    enum Field: UInt8 {
        case path = 1, interface = 2, member = 3, errorName = 4, replySerial = 5, destination = 6, sender = 7
        case signature = 8
    }

    /// The flag bits of the D-Bus specification.
    static let noReplyExpected: UInt8 = 0x1
    /// Asks the bus not to start the destination by activation.
    static let noAutoStart: UInt8 = 0x2

    /// A complete message of `type` (libdbus's message type numbers) with the
    /// header `fields` and `arguments` as its body (of `signature`, when the
    /// caller has it already), about `bodyBytes` long.
    /// `serial` must not be 0; `Connection` numbers the message again when
    /// it sends it.
    static func message(type: Int32, flags: UInt8, serial: UInt32, fields: [(Field, DBusValue)],
                        arguments: [DBusValue], signature: String? = nil, bodyBytes: Int) -> [UInt8] {
        let signature = signature ?? Self.signature(of: arguments)
        var message = WireEncoder()
        message.bytes.reserveCapacity(160 + bodyBytes)
        message.append(UInt8(ascii: "l"), UInt8(truncatingIfNeeded: type), flags, 1)
        message.writeFixed(UInt32(0))  // the body's length, once known
        message.writeFixed(serial)
        // The header fields: an array of (code, variant) structs.
        message.writeArray(elementAlignment: 8) { encoder in
            for (code, value) in fields { encoder.writeField(code, value) }
            if !signature.isEmpty { encoder.writeField(.signature, .signature(signature)) }
        }
        message.align(8)
        let bodyStart = message.bytes.count
        for argument in arguments { message.write(argument) }
        message.patch(UInt32(message.bytes.count - bodyStart), at: 4)
        return message.bytes
    }

    /// The signature of a body of `arguments`.
    static func signature(of arguments: [DBusValue]) -> String {
        var signature = ""
        for argument in arguments { signature += argument.signature }
        return signature
    }

    /// One header field: its code and its value as a variant of a basic type.
    private mutating func writeField(_ code: Field, _ value: DBusValue) {
        align(8)
        let type: UInt8
        switch value {
        case .objectPath: type = UInt8(ascii: "o")
        case .uint32: type = UInt8(ascii: "u")
        case .signature: type = UInt8(ascii: "g")
        default: type = UInt8(ascii: "s")
        }
        append(code.rawValue, 1, type, 0)
        write(value)
    }

    /// Appends `value` at its alignment.
    mutating func write(_ value: DBusValue) {
        switch value {
        case .byte(let v): bytes.append(v)
        case .bool(let b): writeFixed(UInt32(b ? 1 : 0))
        case .int16(let v): writeFixed(v)
        case .uint16(let v): writeFixed(v)
        case .int32(let v): writeFixed(v)
        case .uint32(let v): writeFixed(v)
        case .int64(let v): writeFixed(v)
        case .uint64(let v): writeFixed(v)
        case .double(let v): writeFixed(v.bitPattern)
        case .string(let s), .objectPath(let s):
            writeFixed(UInt32(s.utf8.count))
            bytes += s.utf8
            bytes.append(0)
        case .signature(let s):
            bytes.append(UInt8(s.utf8.count))
            bytes += s.utf8
            bytes.append(0)
        case .unixFD:
            // Refused by `MessageCoder.validate` before anything is written.
            assertionFailure("a file descriptor reached the wire encoder")
            writeFixed(UInt32(0))
        case .bytes(let b):
            writeFixed(UInt32(b.count))
            bytes += b
        case .array(let element, let items):
            writeArray(elementAlignment: Self.alignment(of: element)) { encoder in
                for item in items { encoder.write(item) }
            }
        case .dict(_, _, let entries):
            writeArray(elementAlignment: 8) { encoder in
                for entry in entries {
                    encoder.align(8)
                    encoder.write(entry.key)
                    encoder.write(entry.value)
                }
            }
        case .structure(let fields):
            align(8)
            for field in fields { write(field) }
        case .variant(let inner):
            write(.signature(inner.signature))
            write(inner)
        }
    }

    /// An array: its length word, the padding to its first element (not
    /// counted in the length), then what `content` writes.
    private mutating func writeArray(elementAlignment: Int, _ content: (inout WireEncoder) -> Void) {
        align(4)
        let lengthAt = bytes.count
        writeFixed(UInt32(0))
        align(elementAlignment)
        let start = bytes.count
        content(&self)
        patch(UInt32(bytes.count - start), at: lengthAt)
    }

    /// Appends four bytes (no array is made for them, as a literal would).
    private mutating func append(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        bytes.append(a)
        bytes.append(b)
        bytes.append(c)
        bytes.append(d)
    }

    /// Overwrites the four bytes at `offset` with `value`.
    private mutating func patch(_ value: UInt32, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { word in
            for index in 0..<4 { bytes[offset + index] = word[index] }
        }
    }

    /// `value` in little-endian order, aligned to its size.
    private mutating func writeFixed<T: FixedWidthInteger>(_ value: T) {
        align(MemoryLayout<T>.size)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private mutating func align(_ boundary: Int) {
        var padding = (boundary - bytes.count % boundary) % boundary
        while padding > 0 {
            bytes.append(0)
            padding -= 1
        }
    }

    /// The alignment of a value of the complete type `signature`.
    static func alignment(of signature: String) -> Int {
        alignment(ofTypeCode: signature.utf8.first ?? 0)
    }

    /// The alignment of a value whose type starts with `code` (`WireDecoder` reads by it too).
    static func alignment(ofTypeCode code: UInt8) -> Int {
        switch code {
        case UInt8(ascii: "y"), UInt8(ascii: "g"), UInt8(ascii: "v"): 1
        case UInt8(ascii: "n"), UInt8(ascii: "q"): 2
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "("), UInt8(ascii: "{"): 8
        default: 4  // b i u s o a h
        }
    }
}
