/// A stack's object path, `/org/undod/Undo1/stack/<n>`: the one parser of
/// stack paths. `n` is written as undod writes it — decimal, no sign, no
/// leading zero — so that each stack has exactly one path.
public struct StackPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The stack's number, never reused while the daemon's store exists.
    public let number: UInt64

    /// What every stack path begins with.
    public static let prefix = "/org/undod/Undo1/stack/"

    /// The path of stack `number`.
    public init(number: UInt64) {
        self.number = number
    }

    /// Parses a stack path; nil for any other path (`…/stack/07` included).
    public init?(_ path: String) {
        guard path.hasPrefix(Self.prefix) else { return nil }
        let digits = path.utf8.dropFirst(Self.prefix.utf8.count)
        guard let first = digits.first, first != UInt8(ascii: "0"),
              digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let number = UInt64(String(decoding: digits, as: UTF8.self)) else { return nil }
        self.number = number
    }

    /// The object path.
    public var path: String { Self.prefix + String(number) }

    /// The object path.
    public var description: String { path }

    /// Orders stacks by number.
    public static func < (a: StackPath, b: StackPath) -> Bool { a.number < b.number }
}
