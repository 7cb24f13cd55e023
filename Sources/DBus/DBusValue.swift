/// One D-Bus value with its type: what a message argument, a property or the
/// content of a variant is.
///
/// Containers keep their element signature, so an empty array still knows
/// what it is an array of. Byte arrays (`ay`) have their own case because
/// payloads travel as them and must be cheap to move.
public enum DBusValue: Sendable, Hashable {
    /// `y`
    case byte(UInt8)
    /// `b`
    case bool(Bool)
    /// `n`
    case int16(Int16)
    /// `q`
    case uint16(UInt16)
    /// `i`
    case int32(Int32)
    /// `u`
    case uint32(UInt32)
    /// `x`
    case int64(Int64)
    /// `t`
    case uint64(UInt64)
    /// `d`
    case double(Double)
    /// `s`
    case string(String)
    /// `o`
    case objectPath(String)
    /// `g`
    case signature(String)
    /// `ay`
    case bytes([UInt8])
    /// `a…`: elements of one complete type, named by `element` (never `y`,
    /// which is `bytes`, and never a dict entry, which is `dict`).
    case array(element: String, [DBusValue])
    /// `a{kv}`: entries in wire order.
    case dict(key: String, value: String, [DictEntry])
    /// `(…)`: the fields in order.
    case structure([DBusValue])
    /// `v`: any one value.
    indirect case variant(DBusValue)
    /// `h`: a file descriptor a peer sent. This layer never takes one (the
    /// message keeps and closes it): the case stands for it, so that a
    /// value of the wrong type is seen and refused instead of vanishing. It
    /// cannot be sent.
    case unixFD

    /// One key and value of a `dict`.
    public struct DictEntry: Sendable, Hashable {
        /// The key, a basic type.
        public var key: DBusValue
        /// The value.
        public var value: DBusValue
        /// Makes an entry.
        public init(_ key: DBusValue, _ value: DBusValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value's complete D-Bus signature, for example `a{sv}`.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .bool: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .bytes: "ay"
        case .array(let element, _): "a" + element
        case .dict(let key, let value, _): "a{" + key + value + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        case .unixFD: "h"
        }
    }
}

// MARK: - Building common shapes

extension DBusValue {
    /// An `a{sv}` from a Swift dictionary, keys sorted so output is stable.
    public static func vardict(_ entries: [String: DBusValue]) -> DBusValue {
        .dict(key: "s", value: "v", entries.keys.sorted().map { key in
            DictEntry(.string(key), .variant(entries[key] ?? .bool(false)))
        })
    }

    /// An `as` from Swift strings.
    public static func strings(_ values: [String]) -> DBusValue {
        .array(element: "s", values.map(DBusValue.string))
    }

    /// An `aay` from byte arrays.
    public static func byteArrays(_ values: [[UInt8]]) -> DBusValue {
        .array(element: "ay", values.map(DBusValue.bytes))
    }
}

// MARK: - Reading values back

extension DBusValue {
    /// The string of an `s`, `o` or `g`, else nil.
    public var string: String? {
        switch self {
        case .string(let s), .objectPath(let s), .signature(let s): s
        default: nil
        }
    }
    /// The value of a `b`, else nil.
    public var bool: Bool? {
        if case .bool(let b) = self { b } else { nil }
    }
    /// The value of a `u`, else nil.
    public var uint32: UInt32? {
        if case .uint32(let v) = self { v } else { nil }
    }
    /// The value of a `t`, else nil.
    public var uint64: UInt64? {
        if case .uint64(let v) = self { v } else { nil }
    }
    /// The value of an `x`, else nil.
    public var int64: Int64? {
        if case .int64(let v) = self { v } else { nil }
    }
    /// The bytes of an `ay`, else nil.
    public var bytes: [UInt8]? {
        if case .bytes(let v) = self { v } else { nil }
    }
    /// The elements of any array (`ay` as `y` values), else nil.
    public var elements: [DBusValue]? {
        switch self {
        case .array(_, let items): items
        case .bytes(let b): b.map(DBusValue.byte)
        default: nil
        }
    }
    /// The fields of a struct, else nil.
    public var fields: [DBusValue]? {
        if case .structure(let f) = self { f } else { nil }
    }
    /// The content of a variant, else nil.
    public var variantValue: DBusValue? {
        if case .variant(let v) = self { v } else { nil }
    }
    /// An `a{s…}` as a Swift dictionary, variants unwrapped; nil for other
    /// types. A key that repeats keeps its last value.
    public var stringDictionary: [String: DBusValue]? {
        guard case .dict(let key, _, let entries) = self, key == "s" else { return nil }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            guard let k = entry.key.string else { continue }
            result[k] = entry.value.variantValue ?? entry.value
        }
        return result
    }
}
