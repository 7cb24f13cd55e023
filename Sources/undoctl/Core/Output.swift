#if canImport(Glibc)
import Glibc
#endif
import DBus
import Loop
import SystemCalls

/// Where undoctl writes: standard output for results, standard error for
/// sentences about failures. Every line is written at once with `write(2)`,
/// unbuffered, so `watch` output reaches a pipe the moment it happens.
enum Output {
    /// Writes `text` and a newline to standard output.
    static func line(_ text: String) {
        write(text + "\n", to: 1)
    }

    /// Writes several lines to standard output in one go.
    static func lines(_ texts: [String]) {
        guard !texts.isEmpty else { return }
        write(texts.joined(separator: "\n") + "\n", to: 1)
    }

    /// Whether anything was written to standard output: a `--json` run
    /// that failed before printing its object prints the error as one.
    nonisolated(unsafe) static var wroteResult = false
    // nonisolated(unsafe): undoctl is single-threaded; only the loop's thread writes.

    /// Replaces the last line written to standard output (a terminal) with
    /// `text`: the cursor goes up a line, which is cleared.
    static func rewriteLastLine(_ text: String) {
        write("\u{1B}[1A\u{1B}[2K" + text + "\n", to: 1)
    }

    /// Writes `text` and a newline to standard error.
    static func error(_ text: String) {
        write(text + "\n", to: 2)
    }

    /// Whether a write to standard output found that its reader had gone
    /// (EPIPE, when SIGPIPE is ignored): `watch` stops then.
    nonisolated(unsafe) static var readerGone = false
    // nonisolated(unsafe): undoctl is single-threaded; only the loop's thread writes.

    /// Whether standard output is a terminal.
    static var isTerminal: Bool { isatty(1) != 0 }

    /// How many columns text output should fit in: `columns` (`$COLUMNS`)
    /// when it is a number, else the terminal's width when standard output
    /// is one, else nil (a pipe or file gets every character).
    static func width(columns: String?) -> Int? {
        if let columns = columns.flatMap(Int.init), columns > 0 { return columns }
        guard isTerminal else { return nil }
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Writes every byte of `text` to `fd`, retrying after interruptions and
    /// partial writes. A reader that went away (EPIPE) ends the writing.
    private static func write(_ text: String, to fd: Int32) {
        if fd == 1 { wroteResult = true }
        var text = text
        text.withUTF8 { buffer in
            guard var base = buffer.baseAddress else { return }
            var left = buffer.count
            while left > 0 {
                switch SystemCall.write(fd, UnsafeRawBufferPointer(start: base, count: left)) {
                case .success(let written):
                    left -= written
                    base += written
                case .failure(let error) where error.isWouldBlock:
                    continue
                case .failure(let error):
                    if error == .brokenPipe, fd == 1 { readerGone = true }
                    return
                }
            }
        }
    }
}
