#if canImport(Glibc)
import Glibc
import SystemCalls
#endif
import DBus
import Loop
import ProcessEnvironment

/// The bench's temporary directory (bus socket, configs, state directories,
/// logs), removed when the run ends.
final class Scratch {
    /// Its path.
    let path: String

    /// Makes a fresh directory under `$TMPDIR` (or /tmp).
    init() throws(BenchError) {
        let base = Environment.current().temporaryDirectory
        var template = Array("\(base)/undod-bench-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        guard let made else {
            throw BenchError("Cannot make a temporary directory in \(base): \(String(cString: strerror(errno))).")
        }
        path = String(cString: made)
    }

    /// A new empty directory `name` inside.
    func directory(_ name: String) throws(BenchError) -> String {
        let full = "\(path)/\(name)"
        guard mkdir(full, 0o700) == 0 || errno == EEXIST else {
            throw BenchError("Cannot make \(full): \(String(cString: strerror(errno))).")
        }
        return full
    }

    /// Writes `text` to the file `name` inside; returns its path.
    func write(_ name: String, _ text: String) throws(BenchError) -> String {
        let full = "\(path)/\(name)"
        let fd = open(full, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw BenchError("Cannot write \(full): \(String(cString: strerror(errno))).") }
        defer { close(fd) }
        var text = text
        let written = text.withUTF8 { SystemCall.write(fd, UnsafeRawBufferPointer($0)) }
        guard case .success(text.utf8.count) = written else { throw BenchError("Cannot write \(full): short write.") }
        return full
    }

    /// Opens (creating) the file `name` inside for a child's output.
    func logFile(_ name: String) throws(BenchError) -> (path: String, fd: Int32) {
        let full = "\(path)/\(name)"
        let fd = open(full, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw BenchError("Cannot open \(full): \(String(cString: strerror(errno))).") }
        return (full, fd)
    }

    /// Removes the directory and everything in it (bounded: 10 s).
    func remove() {
        guard let rm = try? ChildProcess(path: "/bin/rm", arguments: ["-rf", path], name: "rm") else { return }
        rm.wait(milliseconds: 10_000)
    }

    /// The last `limit` bytes of the file at `path`, for error messages.
    static func tail(of path: String, limit: Int = 2_000) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        let size = lseek(fd, 0, SEEK_END)
        let start = max(0, Int(size) - limit)
        lseek(fd, off_t(start), SEEK_SET)
        var buffer = [UInt8](repeating: 0, count: limit)
        guard case .success(let count) = buffer.withUnsafeMutableBytes({ SystemCall.read(fd, into: $0) }), count > 0
        else { return "" }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }
}
