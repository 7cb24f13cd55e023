#if canImport(Glibc)
import Glibc
#endif

/// Reads the address a starting `dbus-daemon --print-address` writes: the
/// first line on its stdout, waited for with a deadline that fires even
/// when the bus prints nothing at all.
public enum BusAddressReader {
    /// The first line read from `descriptor` within `milliseconds`; throws
    /// when the line does not come in time, or is not a `unix:` address.
    public static func read(from descriptor: Int32, within milliseconds: Int) throws(RigError) -> String {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(milliseconds))
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 512)
        while !text.contains("\n") {
            let left = clock.now.duration(to: deadline).components
            let leftMilliseconds = left.seconds * 1000 + left.attoseconds / 1_000_000_000_000_000
            guard leftMilliseconds > 0 else { break }
            var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 1, Int32(clamping: leftMilliseconds))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            text += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        let line = text.split(separator: "\n").first.map(String.init) ?? ""
        guard line.hasPrefix("unix:") else {
            let said = text.isEmpty ? "nothing" : "“\(text.prefix(200))”"
            throw RigError("dbus-daemon did not print a bus address within \(milliseconds) ms (it printed \(said)).")
        }
        return line
    }
}
