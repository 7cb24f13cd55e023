#if canImport(Glibc)
import Glibc
#endif
import Locking
package import ProcessEnvironment
import SystemClock

/// undod's log: one line per event on stderr, with journald's `<N>` priority
/// prefixes when stderr is the journal (`JOURNAL_STREAM` is set), else
/// `undod: `. Every line of note (notice, warning, error) carries a stable
/// key (`LogKey`) in brackets after that prefix, then the sentence:
/// `undod: [x11.lost] lost the X server at :1 (…): …`, or
/// `<4>[x11.lost] lost …` in the journal; a routine (debug) line carries
/// one where a reader may look for it, and is otherwise the sentence alone.
/// A line that repeats one of the last two lines written (a line repeated,
/// or two lines that alternate) is counted, not written: the next other
/// line (or 10 s of repeats) first says "[log.repeated] … repeated N times"
/// (or "… the last 2 lines repeated N times"), as journald reports what it
/// suppressed. undod's lines at a stop ("stopping.", "stopped.") so leave
/// no count unsaid.
package struct Log: Sendable {
    /// How much a line matters (syslog priorities).
    package enum Level: Int, Sendable, Comparable {
        /// Something failed.
        case error = 3
        /// Something is off but undod goes on.
        case warning = 4
        /// A normal but notable event (start, stop, reload).
        case notice = 5
        /// Routine detail, shown with `--verbose`.
        case debug = 7

        /// Orders by importance: error is the most important.
        package static func < (a: Level, b: Level) -> Bool { a.rawValue > b.rawValue }
    }

    /// The least important level written.
    package var threshold: Level
    /// Whether debug lines are written (`--verbose`): work done only to
    /// build one can be skipped otherwise.
    package var writesDebug: Bool { Level.debug >= threshold }
    private let journal: Bool
    private let sink: @Sendable (String) -> Void
    private let repeats = Repeats()

    /// The last two lines written and how often they came again since.
    private final class Repeats: Sendable {
        struct State {
            /// The last two distinct lines written, the newest last.
            var recent: [(level: Level, text: String)] = []
            /// Repeats held back since.
            var count = 0
            /// Whether the older of the two came again too (they alternate).
            var alternating = false
            /// When the first of the repeats came (monotonic ns).
            var since: Int64?

            /// The summary of the repeats held back, at the level of the newest line.
            var summary: (Level, String)? {
                guard let last = recent.last, count > 0 else { return nil }
                return (last.level, Log.keyed(.repeated, Log.repeated(count, lines: alternating ? 2 : 1)))
            }
        }
        let state = Lock(State())
    }

    /// How long repeats are held back at most before they are counted in the log.
    static let repeatSummarySeconds = 10

    /// A log that writes `notice` and above, or everything when `verbose`,
    /// to stderr (with journald's prefixes when `environment` says stderr is
    /// the journal).
    package init(verbose: Bool, environment: Environment) {
        self.init(verbose: verbose, journal: environment.value("JOURNAL_STREAM") != nil) { line in
            // write(2), not FileHandle: a closed stderr must cost a log line, not the daemon.
            var line = line
            line.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
        }
    }

    /// A log that hands each finished line (newline included) to `sink`.
    package init(verbose: Bool, journal: Bool, sink: @escaping @Sendable (String) -> Void) {
        threshold = verbose ? .debug : .notice
        self.journal = journal
        self.sink = sink
    }

    /// Writes `message` at `level`, after `key`.
    package func write(_ level: Level, _ key: LogKey, _ message: @autoclosure () -> String) {
        record(level) { Self.keyed(key, message()) }
    }

    /// `message` as a line carrying `key`: "[key] message".
    static func keyed(_ key: LogKey, _ message: String) -> String {
        "[\(key.rawValue)] " + message
    }

    /// Writes the line `line` makes at `level`, or counts it as a repeat.
    private func record(_ level: Level, _ line: () -> String) {
        guard level >= threshold else { return }
        let text = line()
        let now = SystemTime.monotonicNanoseconds
        let lines = repeats.state.withLock { state -> [(Level, String)] in
            if let index = state.recent.lastIndex(where: { $0.level == level && $0.text == text }) {
                state.count += 1
                if index != state.recent.count - 1 { state.alternating = true }
                if state.since == nil { state.since = now }
                guard let since = state.since, now - since >= Int64(Self.repeatSummarySeconds) * 1_000_000_000,
                      let summary = state.summary else {
                    return []
                }
                defer { state.count = 0; state.since = nil; state.alternating = false }
                return [summary]
            }
            var out: [(Level, String)] = []
            if let summary = state.summary { out.append(summary) }
            state.recent = Array((state.recent + [(level, text)]).suffix(2))
            state.count = 0
            state.since = nil
            state.alternating = false
            out.append((level, text))
            return out
        }
        for (level, text) in lines { emit(level, text) }
    }

    private func emit(_ level: Level, _ text: String) {
        sink((journal ? "<\(level.rawValue)>" : "undod: ") + text + "\n")
    }

    /// "… repeated 1,147 times", or for two alternating lines "… the last
    /// 2 lines repeated 1,147 times".
    static func repeated(_ count: Int, lines: Int = 1) -> String {
        var digits = String(count)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        let what = lines == 1 ? "" : "the last \(lines) lines "
        return "… \(what)repeated \(digits + grouped) time\(count == 1 ? "" : "s")"
    }

    /// Writes an error, after `key`.
    package func error(_ key: LogKey, _ message: @autoclosure () -> String) { write(.error, key, message()) }
    /// Writes a warning, after `key`.
    package func warning(_ key: LogKey, _ message: @autoclosure () -> String) { write(.warning, key, message()) }
    /// Writes a notice, after `key`.
    package func notice(_ key: LogKey, _ message: @autoclosure () -> String) { write(.notice, key, message()) }
    /// Writes routine detail a reader may look for, after `key`.
    package func debug(_ key: LogKey, _ message: @autoclosure () -> String) { write(.debug, key, message()) }
    /// Writes routine detail, with no key.
    package func debug(_ message: @autoclosure () -> String) { record(.debug, message) }
}
