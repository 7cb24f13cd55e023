import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// undod's log: one line per event on stderr, with journald's `<N>` priority
/// prefixes when stderr is the journal (`JOURNAL_STREAM` is set).
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

    /// A log that writes `notice` and above, or everything when `verbose`.
    package init(verbose: Bool) {
        threshold = verbose ? .debug : .notice
        journal = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil
    }

    /// Writes `message` at `level`.
    package func write(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= threshold else { return }
        let prefix = journal ? "<\(level.rawValue)>" : "undod: "
        // write(2), not FileHandle: a closed stderr must cost a log line, not the daemon.
        var line = prefix + message() + "\n"
        line.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
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
