import Caretaker

/// Reads `undod.conf`: INI with `[section]` headers, `key = value`, and `#`
/// or `;` comments on whole lines or after whitespace at the end of a value.
/// Unknown sections and keys are warnings (naming the nearest known one);
/// a bad value is an error that names the file, the line and the key. The
/// whole file is read: every error and warning is found in one pass.
package struct ConfigParser {
    /// What parsing found besides the config: warnings for the log.
    package struct Outcome: Sendable {
        /// The config, defaults filled in.
        package var config: DaemonConfig
        /// Unknown sections and keys, one sentence each with file and line.
        package var warnings: [String]
    }

    /// The file name errors and warnings name.
    package let file: String

    /// A parser for text that came from `file`.
    package init(file: String) {
        self.file = file
    }

    /// Parses `text` over the defaults.
    package func parse(_ text: String) throws(ConfigError) -> Outcome {
        var config = DaemonConfig()
        var warnings: [String] = []
        var errors: [ConfigError] = []
        var section = ""
        var seenSection = true
        var lastHotkey = (line: 0, key: "hotkey.redo")
        for (index, bytes) in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            // Blank and comment lines, most of a commented file, cost no string.
            guard let first = bytes.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }),
                  first != UInt8(ascii: "#"), first != UInt8(ascii: ";") else { continue }
            let raw = Substring(bytes)
            func error(_ key: String, _ reason: String) {
                errors.append(ConfigError(file: file, line: number, key: key, reason: reason))
            }
            let line = Self.stripComment(Self.trim(Substring(raw)))
            if line.isEmpty { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count > 2 else {
                    error("", "“\(line)” is not a [section] header.")
                    continue
                }
                section = Self.trim(line.dropFirst().dropLast())
                seenSection = Self.sections.contains(section)
                if !seenSection {
                    warnings.append("\(file):\(number): unknown section [\(section)] is ignored"
                        + Self.suggestion(for: section, among: Self.sections.sorted()))
                }
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                error("", "expected “key = value”, found “\(line)”.")
                continue
            }
            let name = Self.trim(line[..<equals])
            let value = Self.trim(line[line.index(after: equals)...])
            let key = section.isEmpty ? name : "\(section).\(name)"
            guard !section.isEmpty else {
                error(name, "a key must come after a [section] header.")
                continue
            }
            guard seenSection else { continue }
            if key == "hotkey.redo" || key == "hotkey.undo" { lastHotkey = (number, key) }
            do {
                guard try Self.apply(key: key, value: value, to: &config) else {
                    warnings.append("\(file):\(number): unknown key \(key) is ignored"
                        + Self.suggestion(for: key, among: Self.keys))
                    continue
                }
            } catch let reason as ConfigValueError {
                error(key, reason.reason)
            } catch {
                errors.append(ConfigError(file: file, line: number, key: key, reason: "\(error)"))
            }
        }
        if let undo = config.hotkeyUndo, undo == config.hotkeyRedo {
            let other = lastHotkey.key == "hotkey.redo" ? "hotkey.undo" : "hotkey.redo"
            errors.append(ConfigError(file: file, line: lastHotkey.line, key: lastHotkey.key,
                                      reason: "is the same key as \(other) (\(undo)): give undo and redo different keys."))
        }
        if config.notifyConfirm == .always, !config.notifyEnabled {
            warnings.append("\(file): notify.confirm = true needs notify.enabled = true to ask: "
                + "without it the global key never undoes.")
        }
        if var first = errors.first {
            first.alsoFound = Array(errors.dropFirst())
            first.warnings = warnings
            throw first
        }
        return Outcome(config: config, warnings: warnings)
    }

    /// The end of an unknown name's warning: "; did you mean X?" for the
    /// known name nearest `name` (at most a third of its letters apart),
    /// else a full stop.
    static func suggestion(for name: String, among known: [String]) -> String {
        let scored = known.map { ($0, EditDistance.between(name, $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 > 0, best.1 <= max(2, name.count / 3) else {
            return "."
        }
        return "; did you mean \(best.0)?"
    }

    /// How each key this version knows sets its value: the one list of keys.
    private static let setters: [String: @Sendable (String, inout DaemonConfig) throws -> Void] = [
        "limits.levels": { $1.service.levels = try ConfigValue.count($0) },
        "limits.max_bytes": { $1.service.maxBytes = try ConfigValue.size($0) },
        "limits.max_total_bytes": { $1.service.maxTotalBytes = try ConfigValue.size($0) },
        "limits.stacks_per_client": { $1.service.stacksPerClient = try ConfigValue.count($0) },
        "apply.timeout_ms": { $1.service.applyTimeoutMilliseconds = try ConfigValue.positiveMilliseconds($0, bareIs: 1) },
        "apply.queue": { $1.service.applyQueue = try ConfigValue.count($0) },
        "merge.window_ms": { $1.service.mergeWindowMilliseconds = UInt32(clamping: try ConfigValue.duration($0, bareIs: 1)) },
        "stacks.persist": { $1.service.persist = try ConfigValue.boolean($0) },
        "stacks.detached_ttl": { $1.service.detachedTTLMilliseconds = try ConfigValue.duration($0, bareIs: 1_000) },
        "focus.strategy": { value, config in
            guard let name = DaemonConfig.FocusStrategyName(rawValue: value) else {
                throw ConfigValueError("must be auto, recent, x11, sway, kwin or gnome, not “\(value)”.")
            }
            config.focusStrategy = name
        },
        "focus.follows_push": { $1.service.focusFollowsPush = try ConfigValue.boolean($0) },
        "hotkey.undo": { $1.hotkeyUndo = try ConfigValue.hotkey($0) },
        "hotkey.redo": { $1.hotkeyRedo = try ConfigValue.hotkey($0) },
        "notify.enabled": { $1.notifyEnabled = try ConfigValue.boolean($0) },
        "notify.confirm": { value, config in
            if value.lowercased() == "auto" {
                config.notifyConfirm = .whileGuessing
            } else {
                do {
                    config.notifyConfirm = try ConfigValue.boolean(value) ? .always : .never
                } catch {
                    throw ConfigValueError("must be true, false or auto, not “\(value)”.")
                }
            }
        },
    ]

    /// Every key this version knows, as `section.key`.
    static let keys = setters.keys.sorted()
    /// The sections those keys are in.
    static let sections = Set(keys.map { String($0.prefix { $0 != "." }) })

    /// Sets `key` in `config`; false for a key this version does not know.
    private static func apply(key: String, value: String, to config: inout DaemonConfig) throws -> Bool {
        guard let set = setters[key] else { return false }
        try set(value, &config)
        return true
    }

    static func trim(_ text: Substring) -> String {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
              let last = text.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(text[first...last])
    }

    /// Drops a `#` or `;` comment: a whole line, or one after whitespace.
    static func stripComment(_ line: String) -> String {
        if line.hasPrefix("#") || line.hasPrefix(";") { return "" }
        var previous: Character = " "
        for index in line.indices {
            let c = line[index]
            if (c == "#" || c == ";") && previous.isWhitespace { return trim(line[..<index]) }
            previous = c
        }
        return line
    }
}

/// Why one value is bad, before the parser adds file, line and key.
struct ConfigValueError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
