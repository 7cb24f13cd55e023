/// One line of undod's log as a test reads it: the stable key it carries
/// in brackets after the prefix (`undod: [portal.bound] …`; Docs/USING.md,
/// "The log"), if any, and the sentence after it. A test asserts on the
/// key, and on a value it knows (a display, a process, a key's name) in
/// the sentence, never on the sentence's wording.
public struct LogLine: Equatable, Sendable {
    /// The key, without its brackets; nil for a routine line without one.
    public let key: String?
    /// The sentence after the key.
    public let text: String

    /// `line` as undod writes it: `undod: ` (or journald's `<N>`), the key
    /// in brackets and a space, then the sentence.
    public init(_ line: Substring) {
        var rest = line
        if rest.hasPrefix("undod: ") {
            rest = rest.dropFirst("undod: ".count)
        } else if rest.first == "<", let close = rest.firstIndex(of: ">"),
                  rest[rest.index(after: rest.startIndex)..<close].allSatisfy(\.isNumber) {
            rest = rest[rest.index(after: close)...]
        }
        guard rest.first == "[", let close = rest.firstIndex(of: "]"),
              rest[rest.index(after: close)...].hasPrefix(" ") else {
            key = nil
            text = String(rest)
            return
        }
        key = String(rest[rest.index(after: rest.startIndex)..<close])
        text = String(rest[rest.index(close, offsetBy: 2)...])
    }

    /// Each line of `log`, in order.
    public static func lines(of log: String) -> [LogLine] {
        log.split(separator: "\n").map(LogLine.init)
    }
}
