/// An app id is 1–255 characters from `[A-Za-z0-9._-]`, else `InvalidAppId`.
public struct AppIdRule: ValidationRule {
    /// The rule; it has no settings.
    public init() {}

    /// Throws `invalidAppId` unless `appId` is 1–255 allowed ASCII characters.
    public func validate(_ appId: String) throws(UndoError) {
        let bytes = appId.utf8
        guard (1...255).contains(bytes.count), bytes.allSatisfy(Self.isAllowed) else {
            throw .invalidAppId(appId)
        }
    }

    /// Whether a byte is one of `[A-Za-z0-9._-]` (a non-ASCII character's UTF-8 bytes never are).
    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }
}
