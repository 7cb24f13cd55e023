#if canImport(Glibc)
import Glibc
#endif
import SystemCalls

/// Whole small files (a `.trashinfo`, `directorysizes`) written through
/// `SystemCall` (read with `SystemCall.readFile`).
enum SmallFile {
    /// Writes all of `bytes` to `fd`, then syncs it to the disk.
    static func write(_ bytes: [UInt8], to fd: Int32) -> Result<Void, Errno> {
        var done = 0
        while done < bytes.count {
            let result = bytes.withUnsafeBytes { SystemCall.write(fd, UnsafeRawBufferPointer(rebasing: $0[done...])) }
            switch result {
            case .failure(let error): return .failure(error)
            case .success(let count): done += count
            }
        }
        return SystemCall.fsync(fd)
    }

    /// Replaces the file at `path` with `bytes` at once: written to a new
    /// file beside it, then renamed over it (mode 0600).
    static func replace(_ path: String, with bytes: [UInt8]) -> Result<Void, Errno> {
        let temporary = path + ".\(getpid()).new"
        let fd: Int32
        switch SystemCall.open(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode: 0o600) {
        case .failure(let error): return .failure(error)
        case .success(let opened): fd = opened
        }
        let written = write(bytes, to: fd)
        SystemCall.close(fd)
        if case .failure(let error) = written {
            _ = SystemCall.unlink(temporary)
            return .failure(error)
        }
        let renamed = SystemCall.rename(temporary, to: path)
        if case .failure = renamed { _ = SystemCall.unlink(temporary) }
        return renamed
    }
}
