#if canImport(Glibc)
import Glibc
#endif
import Locking

/// undod's log: one line per event on stderr, with journald's `<N>` priority
/// prefixes when stderr is the journal (`JOURNAL_STREAM` is set). A line
/// that repeats the one before it is counted, not written: the next other
/// line (or `flush`, or 30 s of repeats) first says "… repeated N times".
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
    private let journal: Bool
    private let sink: @Sendable (String) -> Void
    private let repeats = Repeats()

    /// The last line written and how often it came again since.
    private final class Repeats: Sendable {
        struct State {
            var last: (level: Level, text: String)?
            var count = 0
            var since: Int64?
        }
        let state = Lock(State())
    }

    /// How long repeats are held back at most before they are counted in the log.
    static let repeatSummarySeconds = 30

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

    /// Writes `message` at `level`.
    package func write(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= threshold else { return }
        let text = message()
        let now = SystemTime.monotonicNanoseconds
        let lines = repeats.state.withLock { state -> [(Level, String)] in
            if let last = state.last, last.level == level, last.text == text {
                state.count += 1
                if state.since == nil { state.since = now }
                guard let since = state.since, now - since >= Int64(Self.repeatSummarySeconds) * 1_000_000_000 else {
                    return []
                }
                defer { state.count = 0; state.since = nil }
                return [(level, Self.repeated(state.count))]
            }
            var out: [(Level, String)] = []
            if let last = state.last, state.count > 0 { out.append((last.level, Self.repeated(state.count))) }
            state.last = (level, text)
            state.count = 0
            state.since = nil
            out.append((level, text))
            return out
        }
        for (level, text) in lines { emit(level, text) }
    }

    /// Writes the count of repeats held back, if any, and forgets the last
    /// line: the next line is written whatever it is.
    package func flush() {
        let pending = repeats.state.withLock { state -> (Level, String)? in
            defer { state = Repeats.State() }
            guard let last = state.last, state.count > 0 else { return nil }
            return (last.level, Self.repeated(state.count))
        }
        if let (level, text) = pending { emit(level, text) }
    }

    private func emit(_ level: Level, _ text: String) {
        sink((journal ? "<\(level.rawValue)>" : "undod: ") + text + "\n")
    }

    /// "… repeated 1,147 times".
    static func repeated(_ count: Int) -> String {
        var digits = String(count)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        return "… repeated \(digits + grouped) time\(count == 1 ? "" : "s")"
    }

    /// Writes an error.
    package func error(_ message: @autoclosure () -> String) { write(.error, message()) }
    /// Writes a warning.
    package func warning(_ message: @autoclosure () -> String) { write(.warning, message()) }
    /// Writes a notice.
    package func notice(_ message: @autoclosure () -> String) { write(.notice, message()) }
    /// Writes routine detail.
    package func debug(_ message: @autoclosure () -> String) { write(.debug, message()) }
}
