#if canImport(Glibc)
import Glibc
#endif
package import Loop

/// Finds and reads the config file: `--config FILE`, else
/// `$XDG_CONFIG_HOME/undod/undod.conf`, else `/etc/xdg/undod/undod.conf`,
/// else the built-in defaults.
package struct ConfigLoader: Sendable {
    /// The file given with `--config`, if any (it must exist).
    package var explicitPath: String?

    /// Where `HOME` and `XDG_CONFIG_HOME` are read.
    package var environment: Environment

    /// A loader that honours `--config` when given, else looks where
    /// `environment` says.
    package init(explicitPath: String?, environment: Environment) {
        self.explicitPath = explicitPath
        self.environment = environment
    }

    /// The file that would be read, or nil for the built-in defaults.
    package func resolvedPath() -> String? {
        if let explicitPath { return explicitPath }
        let home = environment.nonEmpty("HOME") ?? getpwuid(getuid()).flatMap { $0.pointee.pw_dir.map { String(cString: $0) } }
            ?? "/"
        let configHome = environment.nonEmpty("XDG_CONFIG_HOME") ?? "\(home)/.config"
        for candidate in ["\(configHome)/undod/undod.conf", "/etc/xdg/undod/undod.conf"]
        where access(candidate, F_OK) == 0 {
            return candidate
        }
        return nil
    }

    /// Reads and parses the config.
    package func load() throws(ConfigError) -> ConfigParser.Outcome {
        guard let path = resolvedPath() else { return ConfigParser.Outcome(config: DaemonConfig(), warnings: []) }
        let bytes: [UInt8]
        do {
            bytes = try Self.contents(of: path)
        } catch {
            throw ConfigError(file: path, line: 0, key: "", reason: "cannot be read (\(String(cString: strerror(error.code)))).")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigError(file: path, line: 0, key: "", reason: "is not UTF-8 text.")
        }
        return try ConfigParser(file: path).parse(text)
    }

    /// Why a file could not be read: the `errno` of the call that failed.
    private struct ReadFailure: Error {
        var code: Int32
    }

    /// Every byte of the file at `path` (a config file is small; it is read whole).
    private static func contents(of path: String) throws(ReadFailure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ReadFailure(code: errno) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadFailure(code: errno)
            }
            bytes += chunk[0..<count]
        }
    }
}
