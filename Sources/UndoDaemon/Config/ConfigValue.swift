import X11

/// The value syntaxes of `undod.conf`: counts, sizes, durations, booleans and
/// key combinations.
enum ConfigValue {
    /// A whole number that fits 32 bits.
    static func count(_ text: String) throws(ConfigValueError) -> UInt32 {
        guard let value = UInt32(text) else {
            throw ConfigValueError("must be a whole number from 0 to \(UInt32.max), not “\(text)”.")
        }
        return value
    }

    /// A size: a number with `B`, `KiB`, `MiB` or `GiB` (bare: bytes).
    static func size(_ text: String) throws(ConfigValueError) -> UInt64 {
        let units: [(String, UInt64)] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10), ("B", 1)]
        let (number, multiplier) = split(text, units: units, bare: 1)
        guard let value = UInt64(number), value <= UInt64.max / multiplier else {
            throw ConfigValueError("must be a size such as 64MiB (units B, KiB, MiB, GiB), not “\(text)”.")
        }
        return value * multiplier
    }

    /// A duration in milliseconds: a number with `ms`, `s`, `m`, `h` or `d`;
    /// a bare number counts `bareIs` milliseconds per unit.
    static func duration(_ text: String, bareIs: UInt64) throws(ConfigValueError) -> UInt64 {
        let units: [(String, UInt64)] = [("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000)]
        let (number, multiplier) = split(text, units: units, bare: bareIs)
        guard let value = UInt64(number), value <= UInt64.max / multiplier else {
            throw ConfigValueError("must be a duration such as 5s or 7d (units ms, s, m, h, d), not “\(text)”.")
        }
        return value * multiplier
    }

    /// A duration of at least 1 ms that fits 32 bits.
    static func positiveMilliseconds(_ text: String, bareIs: UInt64) throws(ConfigValueError) -> UInt32 {
        let value = try duration(text, bareIs: bareIs)
        guard value >= 1, value <= UInt64(Int32.max) else {
            throw ConfigValueError("must be between 1 ms and \(Int32.max) ms, not “\(text)”.")
        }
        return UInt32(value)
    }

    /// `true`/`false` (also yes/no, on/off, 1/0).
    static func boolean(_ text: String) throws(ConfigValueError) -> Bool {
        switch text.lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: throw ConfigValueError("must be true or false, not “\(text)”.")
        }
    }

    /// A key combination such as `Ctrl+Alt+z`, or empty for none (nil).
    static func hotkey(_ text: String) throws(ConfigValueError) -> KeyCombination? {
        if text.isEmpty { return nil }
        do {
            return try KeyCombination(parsing: text)
        } catch {
            throw ConfigValueError(error.description)
        }
    }

    private static func split(_ text: String, units: [(String, UInt64)], bare: UInt64) -> (String, UInt64) {
        for (suffix, multiplier) in units where text.hasSuffix(suffix) {
            let number = String(text.dropLast(suffix.count))
            return (ConfigParser.trim(Substring(number)), multiplier)
        }
        return (text, bare)
    }
}
