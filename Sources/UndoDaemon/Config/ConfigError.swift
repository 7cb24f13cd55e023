/// A config file that cannot be used: where, which key, and why.
package struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's path.
    package var file: String
    /// The 1-based line, or 0 when the file as a whole is the problem.
    package var line: Int
    /// The `section.key`, or `""` when no key is involved.
    package var key: String
    /// What is wrong, as one sentence.
    package var reason: String

    /// Makes an error.
    package init(file: String, line: Int, key: String, reason: String) {
        self.file = file
        self.line = line
        self.key = key
        self.reason = reason
    }

    /// `FILE:LINE: KEY: REASON`, the form editors can jump to.
    package var description: String {
        var place = file
        if line > 0 { place += ":\(line)" }
        return key.isEmpty ? "\(place): \(reason)" : "\(place): \(key): \(reason)"
    }
}
