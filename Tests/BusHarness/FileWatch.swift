#if canImport(Glibc)
public import Glibc
#endif
public import Loop

/// Names made or renamed into a folder, seen as they happen (inotify,
/// watched by a test's loop): what a wait for a file someone else writes
/// wakes on, instead of polling.
public final class FileWatch {
    /// Whether anything was made or renamed into the folder since the watch began.
    public private(set) var changed = false
    private let fd: Int32
    private let loop: EventLoop
    private var token: EventLoop.Token?

    /// Watches `folder` (which must exist) on `loop`.
    public init(_ folder: String, loop: EventLoop) throws {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw HarnessError("inotify_init1 failed") }
        // IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE
        guard inotify_add_watch(fd, folder, 0x100 | 0x80 | 0x8) >= 0 else {
            close(fd)
            throw HarnessError("inotify cannot watch \(folder)")
        }
        self.loop = loop
        token = loop.watch(fd: fd, events: .readable) { [unowned self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while read(self.fd, &buffer, buffer.count) > 0 { self.changed = true }
        }
    }

    deinit {
        if let token { loop.remove(token) }
        close(fd)
    }
}
