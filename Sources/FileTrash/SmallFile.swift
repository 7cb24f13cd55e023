#if canImport(Glibc)
import Glibc
#endif
import SystemCalls

/// Whole small files (a `.trashinfo`, `directorysizes`) read and written
/// through `SystemCall`.
enum SmallFile {
    /// The file's bytes, up to `limit`.
    static func read(_ path: String, limit: Int = 1 << 20) -> Result<[UInt8], Errno> {
        let fd: Int32
        switch SystemCall.open(path, flags: O_RDONLY | O_CLOEXEC | O_NOFOLLOW) {
        case .failure(let error): return .failure(error)
        case .success(let opened): fd = opened
        }
        defer { SystemCall.close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            let result = chunk.withUnsafeMutableBytes { SystemCall.read(fd, into: $0) }
            switch result {
            case .failure(let error): return .failure(error)
            case .success(0): return .success(bytes)
            case .success(let count): bytes += chunk.prefix(count)
            }
        }
        return .success(bytes)
    }

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
