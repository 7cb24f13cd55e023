/// Writes a whole D-Bus message — header and body — in the wire format
/// (little-endian) straight into memory the message then owns
/// (`WireBytes`): every message undod and its clients build
/// (`Message.methodCall`, `signal`, replies) is sent as these bytes.
///
/// Why: libdbus rewrites the header's signature field each time an argument
/// is appended at the top level, and every rewrite walks the whole header
/// (an `Apply` call with its `aay`, built through `DBusMessageIter`, pays
/// it for every payload); reading bytes back into a libdbus message validates
/// them, which for a small reply cost more than the rest of it. What makes
/// the bytes valid is checked before (`MessageCoder.measure`, the builders'
/// name checks), and every debug build has libdbus validate each message
/// written here.
///
/// The header's fields are plain strings (`Fields`) and the body's signature
/// is written from the values themselves, so nothing is built only to be
/// copied: an `Apply` call costs a third of what it did through an array of
/// fields and a signature string. The memory is sized from the caller's
/// bound and grows if the bound was short, so a wrong bound costs time,
/// never memory safety.
///
/// Values must have passed `MessageCoder.validate` first.
struct WireEncoder {
    /// Where the message is written; `count` bytes of it so far. Offsets
    /// (and so alignment) count from its start.
    private var buffer: UnsafeMutableRawBufferPointer
    /// How many bytes are written.
    private var count = 0

    /// The header field codes of the D-Bus specification.
    enum Field: UInt8 {
        case path = 1, interface = 2, member = 3, errorName = 4, replySerial = 5, destination = 6, sender = 7
        case signature = 8
    }

    /// The header fields a message carries, besides its signature (which
    /// the body gives). Nil fields are left out.
    struct Fields {
        /// `PATH`, an object path.
        var path: String?
        /// `INTERFACE`.
        var interface: String?
        /// `MEMBER`.
        var member: String?
        /// `ERROR_NAME`.
        var errorName: String?
        /// `REPLY_SERIAL`.
        var replySerial: UInt32?
        /// `DESTINATION`.
        var destination: String?
        /// `SENDER`.
        var sender: String?

        /// Sets `field` to `value` as a header read from the wire gives it;
        /// false when the value is not of the field's type, when the field
        /// came already (D-Bus allows each once), or when it is the
        /// signature, which the body gives.
        mutating func set(_ field: Field, _ value: DBusValue) -> Bool {
            switch field {
            case .path: guard path == nil else { return false }
            case .interface: guard interface == nil else { return false }
            case .member: guard member == nil else { return false }
            case .errorName: guard errorName == nil else { return false }
            case .replySerial: guard replySerial == nil else { return false }
            case .destination: guard destination == nil else { return false }
            case .sender: guard sender == nil else { return false }
            case .signature: return false
            }
            switch (field, value) {
            case (.path, .objectPath(let text)): path = text
            case (.interface, .string(let text)): interface = text
            case (.member, .string(let text)): member = text
            case (.errorName, .string(let text)): errorName = text
            case (.replySerial, .uint32(let serial)): replySerial = serial
            case (.destination, .string(let text)): destination = text
            case (.sender, .string(let text)): sender = text
            default: return false
            }
            return true
        }

        /// An upper bound of the bytes these fields take in a header.
        var bytes: Int {
            func cost(_ text: String?) -> Int { text.map { 16 + $0.utf8.count } ?? 0 }
            return cost(path) + cost(interface) + cost(member) + cost(errorName) + (replySerial == nil ? 0 : 16)
                + cost(destination) + cost(sender)
        }
    }

    /// The flag bits of the D-Bus specification.
    static let noReplyExpected: UInt8 = 0x1
    /// Asks the bus not to start the destination by activation.
    static let noAutoStart: UInt8 = 0x2

    /// A complete message of `type` (libdbus's message type numbers) with the
    /// header `fields` and `arguments` as its body, about `bodyBytes` long.
    /// `serial` must not be 0; `Connection` numbers the message again when
    /// it sends it. Throws `InvalidArgs` when the body's signature is longer
    /// than D-Bus allows (nothing is written then).
    static func message(type: Int32, flags: UInt8, serial: UInt32, fields: Fields,
                        arguments: [DBusValue], bodyBytes: Int) throws(DBusError) -> WireBytes {
        var signatureBytes = 0
        for argument in arguments { signatureBytes += signatureLength(of: argument) }
        guard signatureBytes <= MessageCoder.maximumSignatureBytes else {
            throw .invalidArgs("A D-Bus message cannot carry arguments whose signature is over \(MessageCoder.maximumSignatureBytes) bytes.")
        }
        var message = WireEncoder(capacity: 24 + fields.bytes + (signatureBytes == 0 ? 0 : 16 + signatureBytes) + bodyBytes)
        message.append(UInt8(ascii: "l"), UInt8(truncatingIfNeeded: type), flags, 1)
        message.writeFixed(UInt32(0))  // the body's length, once known
        message.writeFixed(serial)
        // The header fields: an array of (code, variant) structs.
        let fieldsAt = message.startArray(elementAlignment: 8)
        message.writeField(.path, UInt8(ascii: "o"), fields.path)
        message.writeField(.interface, UInt8(ascii: "s"), fields.interface)
        message.writeField(.member, UInt8(ascii: "s"), fields.member)
        message.writeField(.errorName, UInt8(ascii: "s"), fields.errorName)
        if let replySerial = fields.replySerial {
            message.startField(.replySerial, UInt8(ascii: "u"))
            message.writeFixed(replySerial)
        }
        message.writeField(.destination, UInt8(ascii: "s"), fields.destination)
        message.writeField(.sender, UInt8(ascii: "s"), fields.sender)
        if signatureBytes > 0 {
            message.startField(.signature, UInt8(ascii: "g"))
            message.append(UInt8(signatureBytes))
            for argument in arguments { message.writeSignature(of: argument) }
            message.append(0)
        }
        message.endArray(fieldsAt)
        message.align(8)
        let bodyStart = message.count
        for argument in arguments { message.write(argument) }
        message.patch(UInt32(message.count - bodyStart), at: 4)
        return WireBytes(taking: UnsafeMutableRawBufferPointer(rebasing: message.buffer[..<message.count]))
    }

    private init(capacity: Int) {
        buffer = .allocate(byteCount: max(capacity, 16), alignment: 8)
    }

    // MARK: Header

    /// A field of a string type, when there is one.
    private mutating func writeField(_ code: Field, _ type: UInt8, _ text: String?) {
        guard let text else { return }
        startField(code, type)
        writeText(text)
    }

    /// A field's struct up to its value: its code and its variant's signature.
    private mutating func startField(_ code: Field, _ type: UInt8) {
        align(8)
        append(code.rawValue, 1, type, 0)
    }

    // MARK: Body

    /// Appends `value` at its alignment.
    mutating func write(_ value: DBusValue) {
        switch value {
        case .byte(let v): append(v)
        case .bool(let b): writeFixed(UInt32(b ? 1 : 0))
        case .int16(let v): writeFixed(v)
        case .uint16(let v): writeFixed(v)
        case .int32(let v): writeFixed(v)
        case .uint32(let v): writeFixed(v)
        case .int64(let v): writeFixed(v)
        case .uint64(let v): writeFixed(v)
        case .double(let v): writeFixed(v.bitPattern)
        case .string(let s), .objectPath(let s):
            writeText(s)
        case .signature(let s):
            append(UInt8(truncatingIfNeeded: s.utf8.count))
            appendUTF8(s)
            append(0)
        case .unixFD:
            // Refused by `MessageCoder.validate` before anything is written.
            assertionFailure("a file descriptor reached the wire encoder")
            writeFixed(UInt32(0))
        case .bytes(let b):
            writeFixed(UInt32(b.count))
            b.withUnsafeBytes { append($0) }
        case .array(let element, let items):
            let start = startArray(elementAlignment: Self.alignment(of: element))
            for item in items { write(item) }
            endArray(start)
        case .dict(_, _, let entries):
            let start = startArray(elementAlignment: 8)
            for entry in entries {
                align(8)
                write(entry.key)
                write(entry.value)
            }
            endArray(start)
        case .structure(let fields):
            align(8)
            for field in fields { write(field) }
        case .variant(let inner):
            append(UInt8(truncatingIfNeeded: Self.signatureLength(of: inner)))
            writeSignature(of: inner)
            append(0)
            write(inner)
        }
    }

    /// A string or object path: its length, its bytes and a NUL.
    private mutating func writeText(_ text: String) {
        writeFixed(UInt32(text.utf8.count))
        appendUTF8(text)
        append(0)
    }

    /// Starts an array: its length word, to be patched by `endArray`, and
    /// the padding to its first element (not counted in the length).
    private mutating func startArray(elementAlignment: Int) -> ArrayStart {
        align(4)
        let lengthAt = count
        writeFixed(UInt32(0))
        align(elementAlignment)
        return ArrayStart(lengthAt: lengthAt, content: count)
    }

    /// Where an array being written keeps its length word, and where its
    /// content starts.
    private struct ArrayStart {
        let lengthAt: Int
        let content: Int
    }

    /// Ends the array `start` began: its length is what was written since.
    private mutating func endArray(_ start: ArrayStart) {
        patch(UInt32(count - start.content), at: start.lengthAt)
    }

    // MARK: Signatures

    /// How many bytes `value`'s signature has.
    static func signatureLength(of value: DBusValue) -> Int {
        switch value {
        case .bytes: 2
        case .array(let element, _): 1 + element.utf8.count
        case .dict(let key, let value, _): 3 + key.utf8.count + value.utf8.count
        case .structure(let fields): fields.reduce(2) { $0 + signatureLength(of: $1) }
        default: 1
        }
    }

    /// Appends `value`'s signature: a container's written piece by piece
    /// (a struct's is never built as a string), a basic type's as
    /// `DBusValue.signature` names it.
    private mutating func writeSignature(of value: DBusValue) {
        switch value {
        case .bytes:
            append(UInt8(ascii: "a"))
            append(UInt8(ascii: "y"))
        case .array(let element, _):
            append(UInt8(ascii: "a"))
            appendUTF8(element)
        case .dict(let key, let value, _):
            append(UInt8(ascii: "a"))
            append(UInt8(ascii: "{"))
            appendUTF8(key)
            appendUTF8(value)
            append(UInt8(ascii: "}"))
        case .structure(let fields):
            append(UInt8(ascii: "("))
            for field in fields { writeSignature(of: field) }
            append(UInt8(ascii: ")"))
        default:
            appendUTF8(value.signature)
        }
    }

    // MARK: Bytes

    /// Makes room for `more` bytes past `count`: the bound given at the
    /// start is the usual case; a short one doubles the memory.
    @inline(__always)
    private mutating func reserve(_ more: Int) {
        if count + more > buffer.count { grow(toHold: more) }
    }

    @inline(never)
    private mutating func grow(toHold more: Int) {
        let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: max(buffer.count * 2, count + more), alignment: 8)
        grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        buffer.deallocate()
        buffer = grown
    }

    private mutating func append(_ byte: UInt8) {
        reserve(1)
        buffer[count] = byte
        count += 1
    }

    /// Appends four bytes.
    private mutating func append(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        reserve(4)
        buffer[count] = a
        buffer[count + 1] = b
        buffer[count + 2] = c
        buffer[count + 3] = d
        count += 4
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        reserve(bytes.count)
        UnsafeMutableRawBufferPointer(rebasing: buffer[count..<(count + bytes.count)]).copyMemory(from: bytes)
        count += bytes.count
    }

    /// Appends a string's UTF-8 bytes (no NUL).
    private mutating func appendUTF8(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Overwrites the four bytes at `offset` with `value`.
    private mutating func patch(_ value: UInt32, at offset: Int) {
        buffer.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt32.self)
    }

    /// `value` in little-endian order, aligned to its size.
    private mutating func writeFixed<T: FixedWidthInteger>(_ value: T) {
        align(MemoryLayout<T>.size)
        reserve(MemoryLayout<T>.size)
        buffer.storeBytes(of: value.littleEndian, toByteOffset: count, as: T.self)
        count += MemoryLayout<T>.size
    }

    /// Zeros up to the next multiple of `boundary` (1, 2, 4 or 8).
    @inline(__always)
    private mutating func align(_ boundary: Int) {
        let padding = Self.padding(to: boundary, at: count)
        guard padding > 0 else { return }
        reserve(padding)
        for offset in count..<(count + padding) { buffer[offset] = 0 }
        count += padding
    }

    /// The zeros that bring `offset` to a multiple of `boundary`, a power of two.
    @inline(__always)
    private static func padding(to boundary: Int, at offset: Int) -> Int {
        (0 &- offset) & (boundary &- 1)
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
