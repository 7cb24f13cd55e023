#if canImport(Glibc)
import Glibc
#endif
internal import CShim

/// The process environment as a value: read once where a program starts
/// (`current()`) and handed down to every part that needs a variable, so
/// no part reads it behind the others' backs and a test can hand in its own.
public struct Environment: Sendable, Equatable {
    /// Every variable, by name.
    public let variables: [String: String]

    /// An environment of exactly `variables`.
    public init(_ variables: [String: String] = [:]) {
        self.variables = variables
    }

    /// The environment this process was started with (and any change it
    /// made since): the one place it is read.
    public static func current() -> Environment {
        var variables: [String: String] = [:]
        guard var entry = cshim_environment() else { return Environment() }
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return Environment(variables)
    }

    /// The value of `name`, or nil when it is not set.
    public func value(_ name: String) -> String? {
        variables[name]
    }

    /// The value of `name`, or nil when it is not set or empty.
    public func nonEmpty(_ name: String) -> String? {
        guard let value = variables[name], !value.isEmpty else { return nil }
        return value
    }

    /// `$TMPDIR` (without a trailing slash), or `/tmp`.
    public var temporaryDirectory: String {
        guard let directory = nonEmpty("TMPDIR") else { return "/tmp" }
        return directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    }

    /// This machine's host name (`gethostname`), or `""` when it cannot be
    /// read: not a variable, but the same kind of fact about where the
    /// process runs.
    public static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
