/// A message's header: its type, flags, serial, the fields `WireEncoder`
/// can write again, and the body's signature.
///
/// A message from the bus is known by its header alone: the bus has
/// validated the whole message before passing it on, and its arguments are
/// read from the bytes by `WireDecoder`, which checks every bound as it
/// goes.
struct WireHeader {
    /// The message type (libdbus's numbers).
    var type: UInt8
    /// The flag bits.
    var flags: UInt8
    /// The sender's serial.
    var serial: UInt32
    /// The fields other than the signature.
    var fields: WireEncoder.Fields
    /// The body's signature (`""` for none).
    var signature: String
    /// Whether the header has a Unix fd count.
    var carriesUnixFDs: Bool
    /// How many Unix fds the message carries (they come with its bytes,
    /// `BusSocket.takeReceivedFDs`).
    var unixFDCount: UInt32 = 0
    /// The header field code of the Unix fd count.
    static let unixFDsField: UInt8 = 9

    /// A header with nothing in it (type 0, no fields).
    static let empty = WireHeader(type: 0, flags: 0, serial: 0, fields: .init(), signature: "", carriesUnixFDs: false)

    /// The largest message D-Bus allows (128 MiB), and so the largest read.
    static let largestMessage = 1 << 27
    /// The longest array D-Bus allows (64 MiB), the header's fields included.
    static let longestArray = 1 << 26

    /// The size of the whole message whose first 16 bytes are `start`, as
    /// the specification frames it: those 16 bytes, the header's fields
    /// padded to 8, then the body. Nil when they are not the start of a
    /// D-Bus message (a byte order other than `l` or `B`, a version other
    /// than 1, an array or a message longer than D-Bus allows), after which
    /// nothing on the stream can be framed.
    static func messageSize(_ start: UnsafeRawBufferPointer) -> Int? {
        guard start.count >= 16, start[0] == UInt8(ascii: "l") || start[0] == UInt8(ascii: "B"),
              start[3] == 1 else { return nil }
        let body = Int(WireBytes.word(at: 4, of: start))
        let fields = Int(WireBytes.word(at: 12, of: start))
        guard fields <= longestArray, body <= largestMessage else { return nil }
        let size = 16 + ((fields + 7) & ~7) + body
        return size <= largestMessage ? size : nil
    }
}

extension WireHeader {
    /// The header at the start of `bytes`, read field by field with no
    /// value made for a known one; a field this package does not know, of
    /// any type, is read and checked by `WireDecoder` and left out, as
    /// D-Bus lets a reader ignore it. Nil when it is not a D-Bus header (a
    /// field twice, a known field of another type, code 0: libdbus refuses
    /// each).
    init?(reading bytes: UnsafeRawBufferPointer) {
        // Type 0 is no message type (libdbus refuses it).
        guard bytes.count >= 16, bytes[0] == UInt8(ascii: "l") || bytes[0] == UInt8(ascii: "B"), bytes[1] != 0,
              bytes[3] == 1 else { return nil }
        func word(_ offset: Int) -> UInt32 { WireBytes.word(at: offset, of: bytes) }
        let fieldsLength = Int(word(12))
        let end = 16 + fieldsLength
        guard fieldsLength <= bytes.count - 16 else { return nil }
        type = bytes[1]
        flags = bytes[2]
        serial = word(8)
        fields = WireEncoder.Fields()
        signature = ""
        carriesUnixFDs = false
        var offset = 16
        var hasSignature = false
        while offset < end {
            offset = (offset + 7) & ~7  // each field is a struct
            // Code, the value's signature (its length, its bytes, a NUL), then the value.
            guard offset + 2 <= end else { return nil }
            let code = bytes[offset]
            let signatureLength = Int(bytes[offset + 1])
            let valueAt = offset + 3 + signatureLength
            // Code 0 is no field; every known field has a one-byte type.
            guard code != 0, valueAt <= end, bytes[valueAt - 1] == 0 else { return nil }
            guard signatureLength == 1 else {
                guard !Self.isKnown(code), let next = Self.skipped(bytes, from: offset + 2, to: valueAt, end) else {
                    return nil
                }
                offset = next
                continue
            }
            let valueType = bytes[offset + 2]
            offset = valueAt
            // The Unix fd count is a `u`, as libdbus holds.
            guard code != Self.unixFDsField || valueType == UInt8(ascii: "u") else { return nil }
            switch valueType {
            case UInt8(ascii: "s"), UInt8(ascii: "o"):
                guard offset + 4 <= end else { return nil }
                let length = Int(word(offset))
                guard length <= end - offset - 5, bytes[offset + 4 + length] == 0 else { return nil }
                let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<(offset + 4 + length)]),
                                  as: UTF8.self)
                offset += 5 + length
                guard Self.set(code, valueType, text, in: &fields) else { return nil }
            case UInt8(ascii: "u"):
                guard offset + 4 <= end else { return nil }
                let value = word(offset)
                offset += 4
                if code == WireEncoder.Field.replySerial.rawValue {
                    guard fields.replySerial == nil else { return nil }
                    fields.replySerial = value
                } else if code == Self.unixFDsField {
                    guard !carriesUnixFDs else { return nil }
                    carriesUnixFDs = true
                    unixFDCount = value
                } else if WireEncoder.Field(rawValue: code) != nil {
                    return nil  // a known field of another type
                }
            case UInt8(ascii: "g"):
                guard offset + 2 <= end else { return nil }
                let length = Int(bytes[offset])
                guard length <= end - offset - 2, bytes[offset + 1 + length] == 0 else { return nil }
                let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(offset + 1)..<(offset + 1 + length)]),
                                  as: UTF8.self)
                offset += 2 + length
                if code == WireEncoder.Field.signature.rawValue {
                    guard !hasSignature else { return nil }
                    hasSignature = true
                    signature = text
                } else if WireEncoder.Field(rawValue: code) != nil {
                    return nil
                }
            default:
                guard !Self.isKnown(code), let next = Self.skipped(bytes, from: offset - 2, to: offset, end) else {
                    return nil
                }
                offset = next
            }
        }
        guard offset == end else { return nil }
    }

    /// Whether `code` is a field of the specification (each has one type).
    private static func isKnown(_ code: UInt8) -> Bool {
        code == unixFDsField || WireEncoder.Field(rawValue: code) != nil
    }

    /// Past the value of an unknown field whose signature lies in
    /// `bytes[signatureStart..<valueAt - 1]` and whose value starts at
    /// `valueAt`, read and checked (`WireDecoder`) within the fields,
    /// which end at `end`; nil when it is not one value of that type.
    private static func skipped(_ bytes: UnsafeRawBufferPointer, from signatureStart: Int, to valueAt: Int,
                                _ end: Int) -> Int? {
        WireDecoder.endOfHeaderValue(Array(bytes[signatureStart..<(valueAt - 1)]), at: valueAt,
                                     of: UnsafeRawBufferPointer(rebasing: bytes[..<end]))
    }

    /// Sets the string field `code` (of `valueType`, `s` or `o`) to `text`;
    /// false when a known field has the other type or came already. An
    /// unknown code is left out, as D-Bus lets a reader ignore it.
    private static func set(_ code: UInt8, _ valueType: UInt8, _ text: String,
                            in fields: inout WireEncoder.Fields) -> Bool {
        guard let field = WireEncoder.Field(rawValue: code) else { return true }
        let value: DBusValue = valueType == UInt8(ascii: "o") ? .objectPath(text) : .string(text)
        return fields.set(field, value)
    }
}
