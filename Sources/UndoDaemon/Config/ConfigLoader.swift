#if canImport(Glibc)
import Glibc
#endif
package import Loop
package import ProcessEnvironment
import SystemCalls

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
            throw ConfigError(file: path, line: 0, key: "", reason: error.reason)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigError(file: path, line: 0, key: "", reason: "is not UTF-8 text.")
        }
        return try ConfigParser(file: path).parse(text)
    }

    /// The most a config file may hold.
    static let largest = 1 << 20

    /// Why a file could not be read, as the end of a sentence.
    private struct ReadFailure: Error {
        var reason: String

        /// "cannot be read (Permission denied)." for the `errno` `code`.
        init(code: Int32) { reason = "cannot be read (\(String(cString: strerror(code))))." }
        init(_ reason: String) { self.reason = reason }
    }

    /// Every byte of the regular file at `path`, at most `largest`: opened
    /// without blocking (a FIFO must not stall undod), and refused unless it
    /// is a regular file (a link to one is fine) of at most 1 MiB, so that a
    /// link to a device or an endless file cannot fill undod's memory.
    private static func contents(of path: String) throws(ReadFailure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw ReadFailure(code: errno) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw ReadFailure(code: errno) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw ReadFailure("is a directory, not a config file.")
        case S_IFIFO: throw ReadFailure("is a FIFO, not a regular file: undod reads only regular files.")
        case S_IFCHR, S_IFBLK: throw ReadFailure("is a device, not a regular file: undod reads only regular files.")
        default: throw ReadFailure("is not a regular file: undod reads only regular files.")
        }
        guard status.st_size <= largest else {
            throw ReadFailure("is \(status.st_size) bytes; a config file may be at most 1 MiB.")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while bytes.count <= largest {
            switch chunk.withUnsafeMutableBytes({ SystemCall.read(fd, into: $0) }) {
            case .success(0): return bytes
            case .success(let count): bytes += chunk[0..<count]
            case .failure(let error): throw ReadFailure(code: error.rawValue)
            }
        }
        throw ReadFailure("grew past 1 MiB while it was read; a config file may be at most 1 MiB.")
    }
}
