#if canImport(Glibc)
import Glibc
#endif
import JSONText

/// A goal for one figure. Goals are what the bench reports against, never
/// assertions: a missed one is printed with ✗ and the run still succeeds.
struct Target: Sendable {
    /// Which way is good.
    enum Bound: Sendable { case atMost, atLeast }
    /// Which way is good.
    let bound: Bound
    /// The limit.
    let limit: Double
    /// Digits after the point when the limit is written.
    let digits: Int
    /// How the limit is written (`≤ 1.10`).
    var text: String { (bound == .atMost ? "≤ " : "≥ ") + Report.format(limit, digits: digits) }
    /// Whether `value` meets the goal.
    func isMet(by value: Double) -> Bool { bound == .atMost ? value <= limit : value >= limit }
    /// How the limit is written as a distance from the floor service's
    /// figure (`≤ floor + 0.05`).
    var textOverFloor: String {
        (bound == .atMost ? "≤ " : "≥ ") + "floor " + (limit < 0 ? "− " : "+ ") + Report.format(abs(limit), digits: digits)
    }
}

/// One line of the table: a measurement, its figures and its goal.
struct Row {
    /// 1…11, as the issues number them.
    let number: Int
    /// A stable key for JSON (`latency`, `throughput`, …).
    let key: String
    /// What is measured, in a few words.
    let title: String
    /// The figure's unit (`×`, `Pings`, `B/group`, `ms`).
    let unit: String
    /// Digits after the point.
    let digits: Int
    /// The goal, or nil for a figure only reported.
    let target: Target?
    /// The goal on the distance from the floor service's figure (the median
    /// less the floor's), which replaces `target` once the floor is
    /// measured in the same run: no service on this transport does better
    /// than the floor, so what is undod's own is the distance.
    var overFloor: Target?
    /// The floor service's median in the same run, once measured.
    var floor: Double?
    /// The figures (one per round), or nil when the measurement failed.
    var summary: Summary?
    /// The absolute figures behind the ratio, in words.
    var detail: String = ""
    /// The same, as numbers for JSON.
    var values: [(String, Double)] = []
    /// Why it could not be measured.
    var error: String?

    /// Whether the median meets the goal (nil: not measured): its distance
    /// from the floor where both are known, else the median itself.
    var met: Bool? {
        guard let summary else { return nil }
        if let overFloor, let floor { return overFloor.isMet(by: summary.median - floor) }
        return target?.isMet(by: summary.median)
    }

    /// The goal as the table writes it, or nil for a figure only reported.
    var goalText: String? {
        if let overFloor, floor != nil { return overFloor.textOverFloor }
        return target?.text
    }
}

/// The machine the figures come from.
struct Machine {
    /// Online processors.
    let processors: Int
    /// The CPU model from /proc/cpuinfo.
    let cpuModel: String
    /// Total memory in bytes, from /proc/meminfo.
    let memoryBytes: Int
    /// The kernel release.
    let kernel: String

    /// This machine.
    static func current() -> Machine {
        let cpuinfo = ProcFile.read("/proc/cpuinfo") ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: " \t") } ?? "unknown"
        let meminfo = ProcFile.read("/proc/meminfo") ?? ""
        let total = meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal:") }
            .flatMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first }
            .flatMap { Int($0) } ?? 0
        var names = utsname()
        uname(&names)
        let release = withUnsafeBytes(of: &names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return Machine(processors: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), cpuModel: model,
                       memoryBytes: total * 1024, kernel: release)
    }

    /// One line for the table's header.
    var description: String {
        "\(processors) CPUs (\(cpuModel)), \(Report.format(Double(memoryBytes) / Double(1 << 30), digits: 1)) GiB, Linux \(kernel)"
    }
}

/// Prints the rows as a table or as one JSON object.
enum Report {
    /// The table.
    static func table(_ rows: [Row], machine: Machine, mode: String, seconds: Double, pinnedCPU: Int32?) -> String {
        var out = "undod-bench (\(mode)) on \(machine.description)\n"
        out += "Each ratio: one figure per round, the two sides interleaved; median, min and max over the rounds.\n"
        out += pinnedCPU.map { "Round trips (rows 1, 3, 4): the bench, the bus and undod all on CPU \($0).\n" }
            ?? "Round trips (rows 1, 3, 4): processes free to run on any CPU (--no-pin).\n"
        out += "\n"
        let header = ["#", "measure", "median", "min", "max", "target", ""]
        var lines: [[String]] = [header]
        for row in rows {
            let unit = unitSuffix(row)
            if let summary = row.summary {
                let single = summary.count == 1
                lines.append([
                    "\(row.number)", row.title, format(summary.median, digits: row.digits) + unit,
                    single ? "–" : format(summary.min, digits: row.digits),
                    single ? "–" : format(summary.max, digits: row.digits),
                    row.goalText.map { $0 + unit } ?? "(reported)", row.target == nil ? "" : row.met == true ? "✓" : "✗",
                ])
            } else {
                lines.append(["\(row.number)", row.title, "failed", "", "", row.goalText.map { $0 + unit } ?? "", "✗"])
            }
        }
        var widths = [Int](repeating: 0, count: header.count)
        for line in lines { for (i, cell) in line.enumerated() { widths[i] = max(widths[i], cell.count) } }
        for (index, line) in lines.enumerated() {
            var text = ""
            for (i, cell) in line.enumerated() {
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                // Numbers right-aligned, words left-aligned.
                text += (i >= 2 && i <= 4 ? pad + cell : cell + pad) + "  "
            }
            out += text.trimmingTrailingSpaces() + "\n"
            if index > 0 {
                let row = rows[index - 1]
                let indent = String(repeating: " ", count: widths[0] + 2)
                if let error = row.error { out += "\(indent)error: \(error)\n" }
                if !row.detail.isEmpty { out += "\(indent)\(row.detail)\n" }
                if let floor = row.floor, row.overFloor != nil, let summary = row.summary {
                    let distance = summary.median - floor
                    out += "\(indent)undod over the floor: \(distance < 0 ? "−" : "+")"
                        + "\(format(abs(distance), digits: row.digits))\(unitSuffix(row))\n"
                }
            }
        }
        let targeted = rows.filter { $0.target != nil }
        let missed = targeted.filter { $0.met != true }.count
        out += "\n\(targeted.count - missed) of \(targeted.count) targets met; \(format(seconds, digits: 1)) s.\n"
        return out
    }

    /// The row's unit after a figure (` ×`), or nothing.
    private static func unitSuffix(_ row: Row) -> String { row.unit.isEmpty ? "" : " \(row.unit)" }

    /// One JSON object with the machine, the mode and every row.
    static func json(_ rows: [Row], machine: Machine, mode: String, seconds: Double, pinnedCPU: Int32?) -> String {
        let rendered = rows.map { row -> JSONValue in
            var fields: [String: JSONValue] = [
                "number": .int(Int64(row.number)), "key": .string(row.key), "title": .string(row.title),
                "unit": .string(row.unit), "met": row.met.map { .bool($0) } ?? .null,
                "values": .object(Dictionary(row.values.map { ($0.0, JSONValue.double($0.1)) },
                                             uniquingKeysWith: { _, last in last })),
                "target": row.target.map { target in
                    .object(["bound": .string(target.bound == .atMost ? "at_most" : "at_least"),
                             "limit": .double(target.limit)])
                } ?? .null,
            ]
            if let overFloor = row.overFloor, let floor = row.floor {
                fields["target_over_floor"] = .object([
                    "bound": .string(overFloor.bound == .atMost ? "at_most" : "at_least"),
                    "limit": .double(overFloor.limit), "floor": .double(floor)])
            }
            if let summary = row.summary {
                fields["median"] = .double(summary.median)
                fields["min"] = .double(summary.min)
                fields["max"] = .double(summary.max)
                fields["rounds"] = .int(Int64(summary.count))
            }
            if !row.detail.isEmpty { fields["detail"] = .string(row.detail) }
            if let error = row.error { fields["error"] = .string(error) }
            return .object(fields)
        }
        let report: JSONValue = .object([
            "mode": .string(mode),
            "round_trip_cpu": pinnedCPU.map { .int(Int64($0)) } ?? .null,
            "seconds": .double(seconds),
            "machine": .object(["processors": .int(Int64(machine.processors)), "cpu_model": .string(machine.cpuModel),
                                "memory_bytes": .uint(UInt64(machine.memoryBytes)), "kernel": .string(machine.kernel)]),
            "rows": .array(rendered),
        ])
        return report.text + "\n"
    }

    /// `value` with `digits` after the point.
    static func format(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "n/a" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (abs(value) * scale).rounded()
        let whole = Int(rounded / scale)
        let fraction = Int(rounded - Double(whole) * scale)
        var text = (value < 0 && rounded != 0 ? "-" : "") + "\(whole)"
        if digits > 0 {
            let digitsText = String(fraction)
            text += "." + String(repeating: "0", count: digits - digitsText.count) + digitsText
        }
        return text
    }

}

extension StringProtocol {
    /// The text without leading and trailing characters in `set`.
    func trimmingCharacters(in set: String) -> String {
        let characters = Array(self)
        var start = 0
        var end = characters.count
        while start < end, set.contains(characters[start]) { start += 1 }
        while end > start, set.contains(characters[end - 1]) { end -= 1 }
        return String(characters[start..<end])
    }

    /// The text without trailing spaces.
    func trimmingTrailingSpaces() -> String {
        var text = String(self)
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
