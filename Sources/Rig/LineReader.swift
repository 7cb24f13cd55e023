#if canImport(Glibc)
import Glibc
import SystemCalls
#endif

/// Lines a child process writes on a pipe, read with a deadline that fires
/// even when it writes nothing and keeps its end open.
public enum LineReader {
    /// The first line from `descriptor` that `test` accepts, within
    /// `milliseconds` (nil when none came in time or the writer closed),
    /// and everything read, for an error to quote.
    public static func firstLine(from descriptor: Int32, within milliseconds: Int,
                                 where test: (String) -> Bool = { _ in true }) -> (line: String?, seen: String) {
        var seen = ""
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(milliseconds))
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while true {
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if test(line) { return (line, seen) }
            }
            let left = clock.now.duration(to: deadline).components
            let leftMilliseconds = left.seconds * 1000 + left.attoseconds / 1_000_000_000_000_000
            guard leftMilliseconds > 0 else { return (nil, seen) }
            var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            let ready = fds.withUnsafeMutableBufferPointer {
                SystemCall.poll($0, milliseconds: Int32(clamping: leftMilliseconds))
            }
            guard case .success(let readyCount) = ready, readyCount > 0 else { continue }
            let read = chunk.withUnsafeMutableBytes { SystemCall.read(descriptor, into: $0) }
            guard case .success(let count) = read, count > 0 else { return (nil, seen) }
            pending += chunk[0..<count]
            seen += String(decoding: chunk[0..<count], as: UTF8.self)
        }
    }
}
