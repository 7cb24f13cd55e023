/// A config file that cannot be used: where, which key, and why.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's path.
    public var file: String
    /// The 1-based line, or 0 when the file as a whole is the problem.
    public var line: Int
    /// The `section.key`, or `""` when no key is involved.
    public var key: String
    /// What is wrong, as one sentence.
    public var reason: String

    /// Makes an error.
    public init(file: String, line: Int, key: String, reason: String) {
        self.file = file
        self.line = line
        self.key = key
        self.reason = reason
    }

    /// `FILE:LINE: KEY: REASON`, the form editors can jump to.
    public var description: String {
        var place = file
        if line > 0 { place += ":\(line)" }
        return key.isEmpty ? "\(place): \(reason)" : "\(place): \(key): \(reason)"
    }
}
