/// Why a text is not JSON: where, and what was expected there.
public struct JSONParseError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The byte offset where reading stopped.
    public let offset: Int
    /// What was wrong there.
    public let reason: String

    /// "… at byte 12".
    public var description: String { "\(reason) at byte \(offset)" }
}

extension JSONValue {
    /// The value `text` holds (RFC 8259), nested at most `maxDepth` deep;
    /// numbers without a fraction or exponent are `int` (or `uint` past
    /// `Int64`), the others `double`.
    public init(parsing text: some Collection<UInt8>, maxDepth: Int = 256) throws(JSONParseError) {
        var reader = JSONReader(Array(text), maxDepth: maxDepth)
        self = try reader.document()
    }

    /// The member `key` of an object; nil for another kind of value.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The elements of an array; nil for another kind of value.
    public var elements: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    /// A string's text; nil for another kind of value.
    public var stringValue: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// A whole number that fits an `Int64`; nil otherwise.
    public var intValue: Int64? {
        switch self {
        case .int(let value): value
        case .uint(let value): Int64(exactly: value)
        default: nil
        }
    }

    /// A boolean; nil for another kind of value.
    public var boolValue: Bool? {
        guard case .bool(let value) = self else { return nil }
        return value
    }
}

/// A single pass over JSON text, byte by byte.
private struct JSONReader {
    private let bytes: [UInt8]
    private let maxDepth: Int
    private var offset = 0
    private var depth = 0

    init(_ bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func document() throws(JSONParseError) -> JSONValue {
        let value = try self.value()
        skipSpace()
        guard offset == bytes.count else { throw fail("text after the value") }
        return value
    }

    private func fail(_ reason: String) -> JSONParseError {
        JSONParseError(offset: offset, reason: reason)
    }

    private mutating func skipSpace() {
        while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
    }

    private mutating func expect(_ word: String, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        let utf8 = Array(word.utf8)
        guard bytes.count - offset >= utf8.count, Array(bytes[offset..<offset + utf8.count]) == utf8 else {
            throw fail("expected \(word)")
        }
        offset += utf8.count
        return value
    }

    private mutating func value() throws(JSONParseError) -> JSONValue {
        skipSpace()
        guard offset < bytes.count else { throw fail("expected a value") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        default: return try number()
        }
    }

    private mutating func nested<T>(_ body: (inout JSONReader) throws(JSONParseError) -> T) throws(JSONParseError) -> T {
        depth += 1
        guard depth <= maxDepth else { throw fail("nested deeper than \(maxDepth)") }
        defer { depth -= 1 }
        return try body(&self)
    }

    private mutating func object() throws(JSONParseError) -> JSONValue {
        try nested { (reader: inout JSONReader) throws(JSONParseError) -> JSONValue in
            reader.offset += 1
            var members: [String: JSONValue] = [:]
            reader.skipSpace()
            if reader.offset < reader.bytes.count, reader.bytes[reader.offset] == UInt8(ascii: "}") {
                reader.offset += 1
                return .object(members)
            }
            while true {
                reader.skipSpace()
                guard reader.offset < reader.bytes.count, reader.bytes[reader.offset] == UInt8(ascii: "\"") else {
                    throw reader.fail("expected a member's name")
                }
                let key = try reader.string()
                reader.skipSpace()
                guard reader.offset < reader.bytes.count, reader.bytes[reader.offset] == UInt8(ascii: ":") else {
                    throw reader.fail("expected :")
                }
                reader.offset += 1
                members[key] = try reader.value()
                reader.skipSpace()
                guard reader.offset < reader.bytes.count else { throw reader.fail("unterminated object") }
                let next = reader.bytes[reader.offset]
                reader.offset += 1
                if next == UInt8(ascii: "}") { return .object(members) }
                guard next == UInt8(ascii: ",") else { throw reader.fail("expected , or }") }
            }
        }
    }

    private mutating func array() throws(JSONParseError) -> JSONValue {
        try nested { (reader: inout JSONReader) throws(JSONParseError) -> JSONValue in
            reader.offset += 1
            var elements: [JSONValue] = []
            reader.skipSpace()
            if reader.offset < reader.bytes.count, reader.bytes[reader.offset] == UInt8(ascii: "]") {
                reader.offset += 1
                return .array(elements)
            }
            while true {
                elements.append(try reader.value())
                reader.skipSpace()
                guard reader.offset < reader.bytes.count else { throw reader.fail("unterminated array") }
                let next = reader.bytes[reader.offset]
                reader.offset += 1
                if next == UInt8(ascii: "]") { return .array(elements) }
                guard next == UInt8(ascii: ",") else { throw reader.fail("expected , or ]") }
            }
        }
    }

    private mutating func string() throws(JSONParseError) -> String {
        offset += 1
        var out: [UInt8] = []
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: out, as: UTF8.self) else { throw fail("a string that is not UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                guard offset < bytes.count else { break }
                let escape = bytes[offset]
                offset += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"): out += try unicodeEscape()
                default: throw fail("an unknown escape")
                }
            case 0..<0x20:
                throw fail("a control character in a string")
            default:
                out.append(byte)
            }
        }
        throw fail("unterminated string")
    }

    /// The UTF-8 of a `\uXXXX` escape (a surrogate pair takes two).
    private mutating func unicodeEscape() throws(JSONParseError) -> [UInt8] {
        var scalar = try hex4()
        if (0xD800..<0xDC00).contains(scalar) {
            guard bytes.count - offset >= 6, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u")
            else { throw fail("a lone surrogate") }
            offset += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw fail("a lone surrogate") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw fail("an invalid code point") }
        return Array(String(Character(unicode)).utf8)
    }

    private mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard bytes.count - offset >= 4 else { throw fail("a short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            offset += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail("a bad \\u escape")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private mutating func number() throws(JSONParseError) -> JSONValue {
        let start = offset
        var whole = true
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        let digitsStart = offset
        while offset < bytes.count {
            let byte = bytes[offset]
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                offset += 1
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
                        || ((byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")) && !whole) {
                whole = false
                offset += 1
            } else {
                break
            }
        }
        guard offset > digitsStart else { throw fail("expected a value") }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        if whole {
            if let value = Int64(text) { return .int(value) }
            if let value = UInt64(text) { return .uint(value) }
        }
        guard let value = Double(text), value.isFinite else { throw fail("a bad number") }
        return .double(value)
    }
}
