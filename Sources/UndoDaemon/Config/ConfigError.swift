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
    /// The other errors found in the same file, in order after this one.
    package var alsoFound: [ConfigError] = []
    /// The warnings found in the same file.
    package var warnings: [String] = []

    /// This error and every other one found with it, in file order.
    package var all: [ConfigError] {
        var first = self
        first.alsoFound = []
        first.warnings = []
        return [first] + alsoFound
    }

    /// Makes an error.
    package init(file: String, line: Int, key: String, reason: String) {
        self.file = file
        self.line = line
        self.key = key
        self.reason = reason
    }

    /// `FILE:LINE: KEY: REASON`, the form editors can jump to; one line
    /// per error when several were found.
    package var description: String {
        ([self.line(of: self)] + alsoFound.map { line(of: $0) }).joined(separator: "\n")
    }

    private func line(of error: ConfigError) -> String {
        let (file, line, key, reason) = (error.file, error.line, error.key, error.reason)
        var place = file
        if line > 0 { place += ":\(line)" }
        return key.isEmpty ? "\(place): \(reason)" : "\(place): \(key): \(reason)"
    }
}
