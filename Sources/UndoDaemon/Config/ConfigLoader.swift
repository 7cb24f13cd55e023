import Foundation

/// Finds and reads the config file: `--config FILE`, else
/// `$XDG_CONFIG_HOME/undod/undod.conf`, else `/etc/xdg/undod/undod.conf`,
/// else the built-in defaults.
package struct ConfigLoader: Sendable {
    /// The file given with `--config`, if any (it must exist).
    package var explicitPath: String?

    /// A loader that honours `--config` when given.
    package init(explicitPath: String?) {
        self.explicitPath = explicitPath
    }

    /// The file that would be read, or nil for the built-in defaults.
    package func resolvedPath() -> String? {
        if let explicitPath { return explicitPath }
        let env = ProcessInfo.processInfo.environment
        let home = env["HOME"] ?? NSHomeDirectory()
        let configHome = env["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "\(home)/.config"
        for candidate in ["\(configHome)/undod/undod.conf", "/etc/xdg/undod/undod.conf"]
        where FileManager.default.fileExists(atPath: candidate) {
            return candidate
        }
        return nil
    }

    /// Reads and parses the config.
    package func load() throws(ConfigError) -> ConfigParser.Outcome {
        guard let path = resolvedPath() else { return ConfigParser.Outcome(config: DaemonConfig(), warnings: []) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ConfigError(file: path, line: 0, key: "", reason: "cannot be read (\(String(cString: strerror(errno)))).")
        }
        defer { try? handle.close() }
        let data = handle.readDataToEndOfFile()
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(file: path, line: 0, key: "", reason: "is not UTF-8 text.")
        }
        return try ConfigParser(file: path).parse(text)
    }
}
