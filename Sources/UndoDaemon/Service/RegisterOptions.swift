import DBus

/// The options of `Register`, read from its `a{sv}`: each one optional,
/// unknown keys ignored, a known key of the wrong type refused.
public struct RegisterOptions: Sendable, Equatable {
    /// `document`
    public var document: String?
    /// `title`
    public var title: String?
    /// `limit` (0 = the config's value)
    public var limit: UInt32?
    /// `max_bytes` (0 = the config's value)
    public var maxBytes: UInt64?
    /// `persist`
    public var persist: Bool?
    /// `global_trigger`
    public var globalTrigger: Bool?
    /// `state_tag`
    public var stateTag: String?
    /// `windows`: the X11 ids of the app's top-level windows.
    public var windows: Set<UInt32>?

    /// The most window ids one `Register` may declare.
    static let maximumWindows = 4_096

    /// Whether any option other than `document` was given ("Register again
    /// with options" is a mutation).
    public var changesSomething: Bool {
        title != nil || limit != nil || maxBytes != nil || persist != nil || globalTrigger != nil || stateTag != nil
            || windows != nil
    }

    /// Reads the options; throws `invalidArgs` for a known key of the wrong type.
    public init(_ options: [String: DBusValue]) throws(ServiceError) {
        document = try OptionReader.string(options, "document")
        title = try OptionReader.string(options, "title")
        limit = try OptionReader.uint32(options, "limit")
        maxBytes = try OptionReader.uint64(options, "max_bytes")
        persist = try OptionReader.bool(options, "persist")
        globalTrigger = try OptionReader.bool(options, "global_trigger")
        stateTag = try OptionReader.string(options, "state_tag")
        if let ids = try OptionReader.uint64Array(options, "windows") {
            guard ids.count <= Self.maximumWindows else {
                throw .invalidArgs("The option windows may name at most \(Self.maximumWindows) windows, not \(ids.count)")
            }
            if let tooLarge = ids.first(where: { $0 > UInt64(UInt32.max) }) {
                throw .invalidArgs("The option windows holds \(tooLarge), which is no X11 window id (they fit 32 bits)")
            }
            windows = Set(ids.map { UInt32($0) })
        }
        for (key, value) in [("title", title), ("document", document), ("state_tag", stateTag)] {
            if let value, value.utf8.count > OptionReader.maximumLength {
                throw .invalidArgs("The option \(key) must be at most \(OptionReader.maximumLength) bytes")
            }
        }
        for (key, value) in [("title", title), ("document", document)] {
            if let value, value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                throw .invalidArgs("The option \(key) must not contain control characters")
            }
        }
    }
}

/// Reads typed entries of an `a{sv}` for options and hints.
enum OptionReader {
    /// The longest string option or hint accepted, in UTF-8 bytes: names
    /// and tags are short, and a client must not grow undod without bound.
    static let maximumLength = 4_096

    static func string(_ options: [String: DBusValue], _ key: String) throws(ServiceError) -> String? {
        guard let value = options[key] else { return nil }
        guard case .string(let s) = value else { throw wrongType(key, "s", value) }
        guard s.utf8.count <= maximumLength else {
            throw .invalidArgs("The option \(key) must be at most \(maximumLength) bytes")
        }
        return s
    }
    static func uint32(_ options: [String: DBusValue], _ key: String) throws(ServiceError) -> UInt32? {
        guard let value = options[key] else { return nil }
        guard case .uint32(let v) = value else { throw wrongType(key, "u", value) }
        return v
    }
    static func uint64(_ options: [String: DBusValue], _ key: String) throws(ServiceError) -> UInt64? {
        guard let value = options[key] else { return nil }
        guard case .uint64(let v) = value else { throw wrongType(key, "t", value) }
        return v
    }
    static func bool(_ options: [String: DBusValue], _ key: String) throws(ServiceError) -> Bool? {
        guard let value = options[key] else { return nil }
        guard case .bool(let v) = value else { throw wrongType(key, "b", value) }
        return v
    }
    /// An `at` (the `windows` option).
    static func uint64Array(_ options: [String: DBusValue], _ key: String) throws(ServiceError) -> [UInt64]? {
        guard let value = options[key] else { return nil }
        guard case .array(element: "t", let items) = value else { throw wrongType(key, "at", value) }
        return items.compactMap(\.uint64)
    }
    private static func wrongType(_ key: String, _ expected: String, _ value: DBusValue) -> ServiceError {
        .invalidArgs("The option \(key) must be of type \(expected), not \(value.signature)")
    }
}
