#if canImport(Glibc)
internal import Glibc
#endif

/// Checks `DBusValue`s before they are written (`WireEncoder` writes them).
///
/// Checking comes first, always: what is written is sent as it is, and the
/// bus drops a connection that sends what D-Bus does not allow; a client
/// must never be able to make us send one.
enum MessageCoder {
    // MARK: Validation

    /// Throws `InvalidArgs` unless `value` can be written as it stands, at
    /// `depth` containers deep; returns the deepest it goes (a value of a
    /// basic type: `depth`). Beyond `deepestNesting` it is refused, as D-Bus
    /// refuses a message nested deeper.
    @discardableResult
    static func validate(_ value: DBusValue, depth: Int = 0) throws(DBusError) -> Int {
        switch value {
        case .string(let s):
            if containsNUL(s) { throw .invalidArgs("A D-Bus string cannot contain a NUL character.") }
        case .objectPath(let p):
            if !DBusSyntax.isObjectPath(p) { throw .invalidArgs("“\(p)” is not a valid D-Bus object path.") }
        case .unixFD:
            throw .invalidArgs("A file descriptor cannot be sent through this connection.")
        case .signature(let g):
            if containsNUL(g) || !LibDBus.isValidSignature(g) {
                throw .invalidArgs("“\(g)” is not a valid D-Bus signature.")
            }
        case .bytes, .array, .dict, .structure, .variant:
            return try validateContainer(value, depth: depth + 1)
        default:
            break
        }
        return depth
    }

    /// `validate` for a container at `depth`.
    private static func validateContainer(_ value: DBusValue, depth: Int) throws(DBusError) -> Int {
        guard depth <= deepestNesting else {
            throw .invalidArgs("A D-Bus value cannot nest more than \(deepestNesting) containers.")
        }
        var deepest = depth
        switch value {
        case .array(let element, let items):
            guard isValidElement(element), element != "y", !element.hasPrefix("{") else {
                throw .invalidArgs("“a\(element)” is not a valid array type here.")
            }
            for item in items {
                guard item.signature == element else {
                    throw .invalidArgs("An array of “\(element)” cannot hold a “\(item.signature)”.")
                }
                deepest = max(deepest, try validate(item, depth: depth))
            }
        case .dict(let key, let valueType, let entries):
            guard LibDBus.isValidSingleType("a{\(key)\(valueType)}") else {
                throw .invalidArgs("“a{\(key)\(valueType)}” is not a valid dictionary type.")
            }
            for entry in entries {
                guard entry.key.signature == key, entry.value.signature == valueType else {
                    throw .invalidArgs("A dictionary of “{\(key)\(valueType)}” cannot hold this entry.")
                }
                try validate(entry.key, depth: depth + 1)
                deepest = max(deepest, try validate(entry.value, depth: depth + 1))
            }
        case .structure(let fields):
            if fields.isEmpty { throw .invalidArgs("A D-Bus struct needs at least one field.") }
            for field in fields { deepest = max(deepest, try validate(field, depth: depth)) }
        case .variant(let inner):
            guard inner.signature.utf8.count <= maximumSignatureBytes else {
                throw .invalidArgs("A D-Bus variant cannot hold a value whose signature is over \(maximumSignatureBytes) bytes.")
            }
            deepest = max(deepest, try validate(inner, depth: depth))
        default:
            break
        }
        return deepest
    }

    /// Whether `element` is one complete type: a basic type, a variant and
    /// `ay` are known without asking libdbus, whose validator allocates as
    /// it walks (for `ay` too, which every `Apply` carries).
    private static func isValidElement(_ element: String) -> Bool {
        let utf8 = element.utf8
        if utf8.count == 1, let code = utf8.first, "ybnqiuxtdsogvh".utf8.contains(code) { return true }
        return element == "ay" || LibDBus.isValidSingleType(element)
    }

    /// How deep D-Bus lets containers nest in a message (arrays, structs,
    /// dict entries and variants together).
    static let deepestNesting = 64
    /// The longest signature D-Bus allows.
    static let maximumSignatureBytes = 255

    /// Whether `text` holds a NUL byte, which a D-Bus string cannot: one
    /// `memchr` over its bytes (iterating `utf8` byte by byte cost 10 % of
    /// undod's time answering introspection with its 10 KB documents).
    static func containsNUL(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let start = bytes.baseAddress else { return false }
            return memchr(start, 0, bytes.count) != nil
        }
    }

    // MARK: Sizes

    /// The D-Bus limits on one array's content and on a whole message body.
    static let maximumArrayBytes = 64 << 20, maximumMessageBytes = 128 << 20

    /// An upper bound of the bytes `value` takes on the wire, its worst-case
    /// alignment padding included; throws when an array in it holds more than
    /// the D-Bus limit, which would make the bus drop the connection. An `ay`
    /// costs its bytes plus 7 (length and padding), the figure a service can
    /// use to keep payloads sendable.
    static func encodedSize(_ value: DBusValue) throws(DBusError) -> Int {
        switch value {
        case .byte: return 1
        case .bool, .int32, .uint32, .int16, .uint16: return 7
        case .int64, .uint64, .double: return 15
        case .string(let s), .objectPath(let s): return s.utf8.count + 8
        case .signature(let s): return s.utf8.count + 2
        case .unixFD: return 7
        case .bytes(let b): return try arrayCost(b.count)
        case .array(_, let items):
            var sum = 0
            for item in items { sum += try encodedSize(item) }
            return try arrayCost(sum) + 7
        case .dict(_, _, let entries):
            var sum = 0
            for entry in entries { sum += try encodedSize(entry.key) + encodedSize(entry.value) + 7 }
            return try arrayCost(sum) + 7
        case .structure(let fields):
            var sum = 7
            for field in fields { sum += try encodedSize(field) }
            return sum
        case .variant(let inner): return try encodedSize(inner) + inner.signature.utf8.count + 2
        }
    }

    /// An array's length word and padding around `content` bytes, after
    /// checking the content against the D-Bus limit.
    private static func arrayCost(_ content: Int) throws(DBusError) -> Int {
        guard content <= maximumArrayBytes else {
            throw DBusError(name: "org.freedesktop.DBus.Error.LimitsExceeded",
                            message: "An array of \(content) bytes is over the D-Bus limit of \(maximumArrayBytes).")
        }
        return content + 7
    }

    /// Throws unless `values` can be written as a message body: each valid,
    /// the whole within the D-Bus limits. Returns an upper bound of its
    /// bytes, and how deep its containers nest.
    static func measure(_ values: [DBusValue]) throws(DBusError) -> (bytes: Int, deepest: Int) {
        var total = 0
        var deepest = 0
        for value in values {
            deepest = max(deepest, try validate(value))
            total += try encodedSize(value)
        }
        guard total <= maximumMessageBytes - (1 << 16) else {
            throw DBusError(name: "org.freedesktop.DBus.Error.LimitsExceeded",
                            message: "A message of \(total) bytes is over the D-Bus limit of \(maximumMessageBytes).")
        }
        return (total, deepest)
    }
}
