#if canImport(Glibc)
internal import Glibc
#endif

/// The error number a system call left (`errno`): an open set of names,
/// as swift-system's `Errno` is, with the C library's sentence for each.
public struct Errno: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The number, as `errno` holds it.
    public let rawValue: Int32

    /// The error numbered `rawValue`.
    public init(_ rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// What the C library says the number means (`strerror`).
    public var description: String { String(cString: strerror(rawValue)) }

    /// A signal came before the call could finish (`EINTR`); the funnel tries again.
    public static let interrupted = Errno(EINTR)
    /// Nothing to read or no room to write now on a non-blocking fd (`EAGAIN`).
    public static let wouldBlock = Errno(EAGAIN)
    /// The disk failed to read or write (`EIO`).
    public static let ioError = Errno(EIO)
    /// No room left on the device (`ENOSPC`).
    public static let noSpace = Errno(ENOSPC)
    /// Permission denied (`EACCES`).
    public static let permissionDenied = Errno(EACCES)
    /// The file system is read-only (`EROFS`).
    public static let readOnlyFileSystem = Errno(EROFS)
    /// The reader of a pipe or socket went away (`EPIPE`).
    public static let brokenPipe = Errno(EPIPE)

    /// Whether the call would have blocked (`EAGAIN` or `EWOULDBLOCK`, one number on Linux).
    public var isWouldBlock: Bool { rawValue == EAGAIN || rawValue == EWOULDBLOCK }
}
