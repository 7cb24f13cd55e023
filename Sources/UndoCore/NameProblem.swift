/// Why a group name was refused.
public enum NameProblem: Sendable, Hashable {
    /// The name is empty.
    case empty
    /// The name has this many characters (Unicode scalars), more than 256.
    case tooLong(Int)
    /// The name contains a control character (Unicode Cc) or a line or paragraph separator.
    case controlCharacter
}
