/// Reads a message's arguments straight from its wire format, the mirror
/// of `WireEncoder`.
///
/// Why: libdbus's `DBusMessageIter` costs about a microsecond for every
/// container it enters, so a `PushGroup` of 100,000 empty actions
/// (`a(ayay)`) took 200 ms to read and held up every other caller that
/// long. Read here, it takes a few milliseconds.
///
/// The bus validated every message it passes on (lengths, alignment,
/// UTF-8, nesting depth), as the specification says; this reader still
/// checks every bound and gives up (nil) on anything it does not expect.
/// It is the one reading of arguments there is: a call it gives up on is
/// answered `InvalidArgs` (`ObjectServer`, or the handler of a method that
/// reads its arguments in place), never read some other way.
struct WireDecoder {
    let bytes: UnsafeRawBufferPointer
    private let bigEndian: Bool
    /// The read position; alignment counts from the start of the message.
    private(set) var offset: Int
    /// How many containers the read position is inside.
    private var depth = 0
    /// The deepest nesting read (D-Bus allows 32 arrays and 32 structs).
    static let deepestNesting = 64

    /// Every argument of the marshalled message `bytes`, whose arguments have
    /// `signature`; nil when the bytes are not what a valid message is.
    static func arguments(of bytes: UnsafeRawBufferPointer, signature: [UInt8]) -> [DBusValue]? {
        guard var decoder = atBody(of: bytes) else { return nil }
        var values: [DBusValue] = []
        var index = 0
        while index < signature.count {
            guard let end = completeTypeEnd(signature, from: index),
                  let value = decoder.value(signature, index..<end) else { return nil }
            values.append(value)
            index = end
        }
        return values
    }

    /// The argument at `index` alone: those before it are skipped (an array
    /// in one step, by its length), so reading a name or options after a
    /// large array costs nothing for the array.
    static func argument(_ index: Int, of bytes: UnsafeRawBufferPointer, signature: [UInt8]) -> DBusValue? {
        guard case (var decoder, let type)? = positioned(at: index, of: bytes, signature: signature) else { return nil }
        return decoder.value(signature, type)
    }

    /// Where a header field's value of the one complete type `signature`,
    /// starting at `offset` of `bytes` (the header up to the end of its
    /// fields), ends: read and checked as any value is, at the depth a
    /// field's value has (in the fields' array, its struct and its
    /// variant), then dropped. Nil when it is not such a value.
    static func endOfHeaderValue(_ signature: [UInt8], at offset: Int, of bytes: UnsafeRawBufferPointer) -> Int? {
        var decoder = WireDecoder(bytes: bytes, bigEndian: bytes[0] == UInt8(ascii: "B"), offset: offset)
        decoder.depth = 3
        guard decoder.variant(signature) != nil else { return nil }
        return decoder.offset
    }

    /// A reader at the start of argument `index` and the range of its type.
    static func positioned(at index: Int, of bytes: UnsafeRawBufferPointer,
                                   signature: [UInt8]) -> (WireDecoder, Range<Int>)? {
        guard var decoder = atBody(of: bytes) else { return nil }
        var start = 0
        for argument in 0...index {
            guard let end = completeTypeEnd(signature, from: start) else { return nil }
            if argument == index { return (decoder, start..<end) }
            guard decoder.skip(signature, start..<end) else { return nil }
            start = end
        }
        return nil
    }

    /// A reader at the start of the message's body: past the fixed header
    /// and its fields, in the byte order the message says.
    static func atBody(of bytes: UnsafeRawBufferPointer) -> WireDecoder? {
        guard bytes.count >= 16, bytes[0] == UInt8(ascii: "l") || bytes[0] == UInt8(ascii: "B") else { return nil }
        var decoder = WireDecoder(bytes: bytes, bigEndian: bytes[0] == UInt8(ascii: "B"), offset: 12)
        guard let fieldsLength = decoder.fixed(UInt32.self) else { return nil }
        decoder.offset = 16 + Int(fieldsLength)
        return decoder.align(8) ? decoder : nil
    }

    /// Moves past a value of the complete type `signature[type]`.
    mutating func skip(_ signature: [UInt8], _ type: Range<Int>) -> Bool {
        switch signature[type.lowerBound] {
        case UInt8(ascii: "a"):
            guard let length = fixed(UInt32.self), align(WireEncoder.alignment(ofTypeCode: signature[type.lowerBound + 1])) else {
                return false
            }
            offset += Int(length)
            return offset <= bytes.count
        case UInt8(ascii: "("):
            guard align(8), let fields = Self.fieldTypes(signature, type) else { return false }
            return fields.allSatisfy { skip(signature, $0) }
        case UInt8(ascii: "s"), UInt8(ascii: "o"):
            // Checked as `text` checks it, but no string is made.
            guard let length = fixed(UInt32.self) else { return false }
            return skipText(Int(length))
        case UInt8(ascii: "g"):
            guard let length = fixed(UInt8.self) else { return false }
            return skipText(Int(length))
        default:
            return value(signature, type) != nil
        }
    }

    /// Moves past `length` bytes of text and the NUL that must end them.
    private mutating func skipText(_ length: Int) -> Bool {
        guard offset + length < bytes.count, bytes[offset + length] == 0 else { return false }
        offset += length + 1
        return true
    }

    /// Whether the array at the read position is empty: its length, read
    /// without moving, is 0.
    var isAtEmptyArray: Bool {
        var probe = self
        return probe.fixed(UInt32.self) == 0
    }

    /// Where the bytes of the `ay` at the read position lie, moving past it.
    @inline(__always)
    mutating func byteArrayRange() -> Range<Int>? {
        guard let length = fixed(UInt32.self), offset + Int(length) <= bytes.count else { return nil }
        defer { offset += Int(length) }
        return offset..<(offset + Int(length))
    }

    /// The value of the complete type `signature[type]` at the read position.
    mutating func value(_ signature: [UInt8], _ type: Range<Int>) -> DBusValue? {
        let code = signature[type.lowerBound]
        if code == UInt8(ascii: "v") || code == UInt8(ascii: "(") || code == UInt8(ascii: "a") {
            // Bounded as D-Bus bounds it (64), so no message can exhaust the stack.
            guard depth < Self.deepestNesting else { return nil }
            depth += 1
        }
        defer { if code == UInt8(ascii: "v") || code == UInt8(ascii: "(") || code == UInt8(ascii: "a") { depth -= 1 } }
        switch code {
        case UInt8(ascii: "y"): return fixed(UInt8.self).map(DBusValue.byte)
        case UInt8(ascii: "b"): return fixed(UInt32.self).map { .bool($0 != 0) }
        case UInt8(ascii: "n"): return fixed(Int16.self).map(DBusValue.int16)
        case UInt8(ascii: "q"): return fixed(UInt16.self).map(DBusValue.uint16)
        case UInt8(ascii: "i"): return fixed(Int32.self).map(DBusValue.int32)
        case UInt8(ascii: "u"): return fixed(UInt32.self).map(DBusValue.uint32)
        case UInt8(ascii: "x"): return fixed(Int64.self).map(DBusValue.int64)
        case UInt8(ascii: "t"): return fixed(UInt64.self).map(DBusValue.uint64)
        case UInt8(ascii: "d"): return fixed(UInt64.self).map { .double(Double(bitPattern: $0)) }
        case UInt8(ascii: "h"): return fixed(UInt32.self).map { _ in .unixFD }
        case UInt8(ascii: "s"): return text(lengthBytes: 4).map(DBusValue.string)
        case UInt8(ascii: "o"): return text(lengthBytes: 4).map(DBusValue.objectPath)
        case UInt8(ascii: "g"): return text(lengthBytes: 1).map(DBusValue.signature)
        case UInt8(ascii: "v"):
            guard let inner = text(lengthBytes: 1), let value = variant(Array(inner.utf8)) else { return nil }
            return .variant(value)
        case UInt8(ascii: "("):
            guard let fields = Self.fieldTypes(signature, type) else { return nil }
            return structure(signature, fields)
        case UInt8(ascii: "a"):
            return array(signature, (type.lowerBound + 1)..<type.upperBound)
        default:
            return nil
        }
    }

    /// A struct whose fields have the types `signature[fields[…]]`.
    private mutating func structure(_ signature: [UInt8], _ fields: [Range<Int>]) -> DBusValue? {
        guard align(8) else { return nil }
        var values: [DBusValue] = []
        values.reserveCapacity(fields.count)
        for field in fields {
            guard let value = value(signature, field) else { return nil }
            values.append(value)
        }
        return .structure(values)
    }

    /// The ranges of the field types of the struct type `signature[type]`.
    private static func fieldTypes(_ signature: [UInt8], _ type: Range<Int>) -> [Range<Int>]? {
        var fields: [Range<Int>] = []
        var index = type.lowerBound + 1
        while index < type.upperBound - 1 {
            guard let end = completeTypeEnd(signature, from: index) else { return nil }
            fields.append(index..<end)
            index = end
        }
        return fields
    }

    /// A variant's value: its signature must be exactly one complete type.
    private mutating func variant(_ signature: [UInt8]) -> DBusValue? {
        guard !signature.isEmpty, Self.completeTypeEnd(signature, from: 0) == signature.count else { return nil }
        return value(signature, 0..<signature.count)
    }

    /// An array whose elements are of the complete type `signature[element]`.
    private mutating func array(_ signature: [UInt8], _ element: Range<Int>) -> DBusValue? {
        guard let length = fixed(UInt32.self), align(WireEncoder.alignment(ofTypeCode: signature[element.lowerBound])) else {
            return nil
        }
        let end = offset + Int(length)
        guard end <= bytes.count else { return nil }
        switch signature[element.lowerBound] {
        case UInt8(ascii: "y"):
            let content = Array(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
            offset = end
            return .bytes(content)
        case UInt8(ascii: "{"):
            let keyType = (element.lowerBound + 1)..<(element.lowerBound + 2)
            let valueType = keyType.upperBound..<(element.upperBound - 1)
            var entries: [DBusValue.DictEntry] = []
            while offset < end {
                guard align(8), let key = value(signature, keyType), let value = value(signature, valueType) else {
                    return nil
                }
                entries.append(.init(key, value))
            }
            guard offset == end else { return nil }
            return .dict(key: Self.text(signature, keyType), value: Self.text(signature, valueType), entries)
        default:
            // A struct's field types are found once for all the elements.
            let fields = signature[element.lowerBound] == UInt8(ascii: "(") ? Self.fieldTypes(signature, element) : nil
            var items: [DBusValue] = []
            while offset < end {
                let item = if let fields { structure(signature, fields) } else { value(signature, element) }
                guard let item else { return nil }
                items.append(item)
            }
            guard offset == end else { return nil }
            return .array(element: Self.text(signature, element), items)
        }
    }

    /// A string with a length of `lengthBytes` bytes before it and a NUL after.
    mutating func text(lengthBytes: Int) -> String? {
        let length: Int
        if lengthBytes == 1 {
            guard let byte = fixed(UInt8.self) else { return nil }
            length = Int(byte)
        } else {
            guard let word = fixed(UInt32.self) else { return nil }
            length = Int(word)
        }
        guard offset + length < bytes.count, bytes[offset + length] == 0 else { return nil }
        let string = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)]), as: UTF8.self)
        offset += length + 1
        return string
    }

    /// A fixed-size integer, aligned to its size, in the message's byte order.
    @inline(__always)
    mutating func fixed<T: FixedWidthInteger>(_ type: T.Type) -> T? {
        let size = MemoryLayout<T>.size
        guard align(size), offset + size <= bytes.count else { return nil }
        let raw = bytes.loadUnaligned(fromByteOffset: offset, as: T.self)
        offset += size
        return bigEndian ? T(bigEndian: raw) : T(littleEndian: raw)
    }

    /// Skips the padding up to the next multiple of `boundary`.
    @inline(__always)
    mutating func align(_ boundary: Int) -> Bool {
        offset = (offset + boundary - 1) / boundary * boundary
        return offset <= bytes.count
    }

    /// Where the complete type starting at `start` ends (one past its last
    /// character); nil if the signature breaks off.
    static func completeTypeEnd(_ signature: [UInt8], from start: Int) -> Int? {
        guard start < signature.count else { return nil }
        switch signature[start] {
        case UInt8(ascii: "a"):
            return completeTypeEnd(signature, from: start + 1)
        case UInt8(ascii: "("), UInt8(ascii: "{"):
            let close = signature[start] == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
            var index = start + 1
            while index < signature.count, signature[index] != close {
                guard let end = completeTypeEnd(signature, from: index) else { return nil }
                index = end
            }
            return index < signature.count && index > start + 1 ? index + 1 : nil
        default:
            return start + 1
        }
    }

    private static func text(_ signature: [UInt8], _ range: Range<Int>) -> String {
        String(decoding: signature[range], as: UTF8.self)
    }
}
