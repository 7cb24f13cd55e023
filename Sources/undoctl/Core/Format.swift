#if canImport(Glibc)
import Glibc
#endif
import Loop
import SystemClock

/// How values look in text output: quoted names, safe titles, sizes, times
/// and columns.
enum Format {
    /// `text` in double quotes, as names are shown (`"Typing"`): quotes and
    /// backslashes escaped, control characters shown as escapes so that no
    /// name can move the cursor of the terminal it is printed on.
    static func quoted(_ text: String) -> String {
        "\"" + escaped(text, quoting: true) + "\""
    }

    /// `text` with control characters shown as escapes: for titles and
    /// documents printed without quotes.
    static func safe(_ text: String) -> String {
        escaped(text, quoting: false)
    }

    private static func escaped(_ text: String, quoting: Bool) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"" where quoting: out += "\\\""
            case "\\" where quoting: out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}" {
                    out += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// A sentence made into a clause to sit inside another sentence: no
    /// full stop at its end.
    static func clause(_ text: String) -> String {
        var text = Substring(text)
        while text.last == "." || text.last == " " { text = text.dropLast() }
        return String(text)
    }

    /// `text` cut to at most `width` characters, the cut marked with `…`.
    static func truncated(_ text: String, to width: Int) -> String {
        guard text.count > width, width > 1 else { return text }
        var kept = text.prefix(width - 1)
        while kept.last == " " { kept = kept.dropLast() }
        return String(kept) + "…"
    }

    /// `text` padded with spaces on the right to `width` characters.
    static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// `text` padded with spaces on the left to `width` characters.
    static func rightAligned(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }

    /// Rows laid out in columns two spaces apart; the last column is never
    /// padded. `rightAligned` lists the columns (numbers) aligned right.
    static func table(_ rows: [[String]], rightAligned right: Set<Int> = []) -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        return rows.map { row in
            var cells: [String] = []
            for (index, cell) in row.enumerated() {
                let last = index == row.count - 1
                if right.contains(index) {
                    cells.append(rightAligned(cell, widths[index]))
                } else {
                    cells.append(last ? cell : padded(cell, widths[index]))
                }
            }
            var line = cells.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// Rows whose cells are cut (with `…`) so that their table, two spaces
    /// between columns, fits in `width`. `tiers` lists the columns that may
    /// shrink, each with its minimum width, the most expendable tier first:
    /// the widest column of a tier loses a character at a time, and the next
    /// tier is touched only when the first is at its minimums.
    static func fitted(_ rows: [[String]], into width: Int, shrinking tiers: [[Int: Int]]) -> [[String]] {
        let columns = rows.map(\.count).max() ?? 0
        guard columns > 0 else { return rows }
        var caps = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        for minimums in tiers {
            while caps.reduce(0, +) + 2 * (columns - 1) > width {
                let shrinkable = minimums.keys.filter { $0 < columns && caps[$0] > minimums[$0, default: 0] }
                guard let widest = shrinkable.max(by: { caps[$0] < caps[$1] || (caps[$0] == caps[$1] && $0 < $1) })
                else { break }
                caps[widest] -= 1
            }
        }
        return rows.map { row in row.enumerated().map { truncated($0.element, to: caps[$0.offset]) } }
    }

    /// A byte count for people: `512 B`, `1.5 KiB`, `3.0 MiB`.
    static func size(_ bytes: UInt64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        guard bytes >= 1024 else { return "\(bytes) B" }
        var unit = 0
        var scaled = bytes
        while scaled >= 1024 * 1024, unit < units.count - 2 {
            scaled /= 1024
            unit += 1
        }
        // `scaled` is now below 1024² in units[unit]: one decimal of the next unit.
        let tenths = (scaled * 10 + 512) / 1024
        return "\(tenths / 10).\(tenths % 10) \(units[unit + 1])"
    }

    /// A time (µs since the Unix epoch) in local time: `14:02:11` when it is
    /// today, else `2025-01-30 14:02`.
    static func localTime(microseconds: Int64, now: Int64 = SystemTime.wallMicroseconds) -> String {
        let moment = brokenDown(microseconds, local: true)
        let today = brokenDown(now, local: true)
        if moment.tm_year == today.tm_year, moment.tm_yday == today.tm_yday {
            return "\(two(moment.tm_hour)):\(two(moment.tm_min)):\(two(moment.tm_sec))"
        }
        return "\(moment.tm_year + 1900)-\(two(moment.tm_mon + 1))-\(two(moment.tm_mday)) "
            + "\(two(moment.tm_hour)):\(two(moment.tm_min))"
    }

    /// A time (µs since the Unix epoch) as RFC 3339 in UTC with
    /// milliseconds: `2025-01-30T13:02:11.250Z`.
    static func utcTimestamp(microseconds: Int64) -> String {
        let moment = brokenDown(microseconds, local: false)
        var milliseconds = (microseconds / 1_000) % 1_000
        if milliseconds < 0 { milliseconds += 1_000 }
        let millisText = milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return "\(moment.tm_year + 1900)-\(two(moment.tm_mon + 1))-\(two(moment.tm_mday))T"
            + "\(two(moment.tm_hour)):\(two(moment.tm_min)):\(two(moment.tm_sec)).\(millisText)Z"
    }

    private static func brokenDown(_ microseconds: Int64, local: Bool) -> tm {
        var seconds = time_t(microseconds / 1_000_000 - (microseconds % 1_000_000 < 0 ? 1 : 0))
        var result = tm()
        if local { localtime_r(&seconds, &result) } else { gmtime_r(&seconds, &result) }
        return result
    }

    private static func two(_ value: Int32) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
