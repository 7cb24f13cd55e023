/// A group name is not empty, holds no control character, and has at most
/// 256 characters (counted as Unicode scalars), else `InvalidName`.
public struct GroupNameRule: ValidationRule {
    /// The most characters a name may have.
    public static let maxCharacters = 256

    /// The rule; it has no settings.
    public init() {}

    /// Throws `invalidName` with the first problem found: empty, then control characters, then length.
    public func validate(_ group: GroupCandidate) throws(UndoError) {
        let utf8 = group.name.utf8
        guard !utf8.isEmpty else { throw .invalidName(.empty) }
        // Most names are printable ASCII: one pass over the bytes settles them.
        if utf8.count <= Self.maxCharacters, utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return }
        let scalars = group.name.unicodeScalars
        guard !scalars.contains(where: Self.isControl) else { throw .invalidName(.controlCharacter) }
        let count = scalars.count
        guard count <= Self.maxCharacters else { throw .invalidName(.tooLong(count)) }
    }

    /// Whether a scalar is a control character (Cc) or a line or paragraph separator (Zl, Zp).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
