/// A JSON value as undoctl and undod-bench print it: objects with their keys
/// sorted and no whitespace, so the same state always prints the same bytes
/// (one line, which is also what `watch --json` needs for JSON lines).
public enum JSONValue: Sendable, Equatable {
    /// `null`
    case null
    /// `true` or `false`
    case bool(Bool)
    /// A signed integer.
    case int(Int64)
    /// An unsigned integer (group ids and byte counts are `t` on the bus).
    case uint(UInt64)
    /// A floating-point number, in its shortest exact form; `null` when
    /// it is not finite (JSON has no infinities or NaN).
    case double(Double)
    /// A string, escaped on output.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; printed with its keys in sorted order.
    case object([String: JSONValue])

    /// A string, or `null` when `text` is empty (the daemon's "none").
    public static func stringOrNull(_ text: String) -> JSONValue {
        text.isEmpty ? .null : .string(text)
    }

    /// The compact text of the value.
    public var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .uint(let value): out += String(value)
        case .double(let value): out += Self.number(value)
        case .string(let value): Self.escape(value, to: &out)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, key) in members.keys.sorted(by: Self.byteOrder).enumerated() {
                if index > 0 { out += "," }
                Self.escape(key, to: &out)
                out += ":"
                members[key, default: .null].write(to: &out)
            }
            out += "}"
        }
    }

    /// `value` as JSON: whole numbers without a point, others in Swift's
    /// shortest form that reads back exactly.
    private static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// Orders keys by their UTF-8 bytes, the same on every platform.
    private static func byteOrder(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// Writes `text` as a JSON string: quotes, backslashes and control
    /// characters escaped, everything else as UTF-8.
    private static func escape(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\u{00}"..."\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
