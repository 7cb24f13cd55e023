#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A Unix socket the test process listens on: a stand-in for a Wayland
/// display's socket, so that undod finds the test process serving it (the
/// stand-in compositor of `ReportFocusTests`), or for a bus that answers as
/// a test tells it (`AuthenticationTests`). Nobody is accepted unless a
/// test calls `acceptConnection`.
public final class ListeningSocket: Sendable {
    /// Where it listens.
    public let path: String
    /// The directory made for it (`init(named:prefix:)`), removed with it.
    private let directory: String?
    private let fd: Int32

    /// Listens at `name` in a fresh directory of the temporary directory
    /// whose name starts with `prefix`; the directory goes with the socket.
    public convenience init(named name: String, inDirectoryStartingWith prefix: String) throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try self.init(path: directory.appendingPathComponent(name).path, directory: directory.path)
    }

    /// Listens at `path` (replacing a stale socket there).
    public convenience init(path: String) throws {
        try self.init(path: path, directory: nil)
    }

    private init(path: String, directory: String?) throws {
        self.path = path
        self.directory = directory
        unlink(path)
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard fd >= 0, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw CocoaError(.fileWriteInvalidFileName)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw CocoaError(.fileWriteUnknown)
        }
    }

    /// Waits for the next connection; its descriptor, the caller's to
    /// close (-1 where accepting failed).
    public func acceptConnection() -> Int32 {
        accept(fd, nil, nil)
    }

    deinit {
        close(fd)
        unlink(path)
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }
}
