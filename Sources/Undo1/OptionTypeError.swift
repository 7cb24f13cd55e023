/// A known option or hint sent with another D-Bus type than the contract's
/// (`org.freedesktop.DBus.Error.InvalidArgs` on the wire).
public struct OptionTypeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The option's key.
    public let key: String
    /// The signature the contract gives it.
    public let expected: String
    /// The signature it came with.
    public let found: String

    /// The error for option `key`, of the contract's signature `expected`,
    /// sent as `found`.
    public init(key: String, expected: String, found: String) {
        self.key = key
        self.expected = expected
        self.found = found
    }

    /// The sentence: `The option limit must be of type u, not s`.
    public var description: String { "The option \(key) must be of type \(expected), not \(found)" }
}
