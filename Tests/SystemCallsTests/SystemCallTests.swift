import Foundation
import SystemCalls
import Testing

/// The funnel: a call interrupted is tried again, a failure comes back as
/// its `Errno`, and a fault put in reaches only files under its directory,
/// by path or by an fd opened there.
@Suite struct SystemCallTests {
    /// A fresh directory of this test's own.
    static func directory() throws -> String {
        let path = NSTemporaryDirectory() + "systemcalls-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    /// Writes `text` to a new file `name` in `directory` through the funnel.
    static func write(_ text: String, to name: String, in directory: String) -> Result<Int, Errno> {
        SystemCall.open(directory + "/" + name, flags: O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode: 0o600)
            .flatMap { fd in
                defer { SystemCall.close(fd) }
                var text = text
                return text.withUTF8 { SystemCall.write(fd, UnsafeRawBufferPointer($0)) }
            }
    }

    @Test func aFailureIsItsErrno() {
        #expect(SystemCall.open("/nonexistent/\(UUID())", flags: O_RDONLY) == .failure(Errno(ENOENT)))
        #expect(Errno(ENOENT).description == String(cString: strerror(ENOENT)))
    }

    @Test func interruptionsAreTriedAgain() throws {
        let directory = try Self.directory()
        let armed = SystemCallFaults.arm(.init(.write, under: directory, errno: .interrupted, times: 3))
        defer { SystemCallFaults.disarm(armed) }
        #expect(Self.write("abc", to: "f", in: directory) == .success(3))
        #expect(try String(contentsOfFile: directory + "/f", encoding: .utf8) == "abc")
    }

    @Test func aFaultReachesOnlyItsDirectoryAndItsCount() throws {
        let mine = try Self.directory(), other = try Self.directory()
        let armed = SystemCallFaults.arm(.init(.write, under: mine, errno: .ioError, skipping: 1, times: 1))
        defer { SystemCallFaults.disarm(armed) }
        #expect(Self.write("x", to: "a", in: other) == .success(1), "another directory is untouched")
        #expect(Self.write("x", to: "a", in: mine) == .success(1), "the first is let through")
        #expect(Self.write("x", to: "b", in: mine) == .failure(.ioError), "by the fd opened there")
        #expect(Self.write("x", to: "c", in: mine) == .success(1), "once only")
        let opening = SystemCallFaults.arm(.init(.open, under: mine, errno: .permissionDenied))
        #expect(Self.write("x", to: "d", in: mine) == .failure(.permissionDenied), "by the path")
        SystemCallFaults.disarm(opening)
        #expect(Self.write("x", to: "d", in: mine) == .success(1), "disarmed")
    }
}
