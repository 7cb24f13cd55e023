import DBus
import Undo1

/// Reads typed entries of an `a{sv}` of options or hints: absent is nil, a
/// value of another type is an `OptionTypeError`.
struct OptionReader {
    let values: [String: DBusValue]

    init(_ values: [String: DBusValue]) { self.values = values }

    func string(_ key: String) throws(OptionTypeError) -> String? {
        try read(key, "s") { if case .string(let v) = $0 { v } else { nil } }
    }
    func uint32(_ key: String) throws(OptionTypeError) -> UInt32? {
        try read(key, "u") { if case .uint32(let v) = $0 { v } else { nil } }
    }
    func uint64(_ key: String) throws(OptionTypeError) -> UInt64? {
        try read(key, "t") { if case .uint64(let v) = $0 { v } else { nil } }
    }
    func bool(_ key: String) throws(OptionTypeError) -> Bool? {
        try read(key, "b") { if case .bool(let v) = $0 { v } else { nil } }
    }
    func uint64s(_ key: String) throws(OptionTypeError) -> [UInt64]? {
        try read(key, "at") { if case .array(element: "t", let items) = $0 { items.compactMap(\.uint64) } else { nil } }
    }

    private func read<T>(_ key: String, _ signature: String, _ take: (DBusValue) -> T?) throws(OptionTypeError) -> T? {
        // Most calls carry none: an empty dictionary is not hashed into.
        guard !values.isEmpty, let value = values[key] else { return nil }
        guard let typed = take(value) else {
            throw OptionTypeError(key: key, expected: signature, found: value.signature)
        }
        return typed
    }
}
