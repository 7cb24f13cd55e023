#if canImport(Glibc)
public import Glibc
#endif

/// Every file and socket call undod makes, through one place: each is
/// tried again when a signal interrupts it (`EINTR`), its failure comes
/// back as an `Errno`, and a test may make it fail on purpose
/// (`SystemCallFaults`), in process, on files under one directory only.
/// swift-system's `valueOrErrno(retryOnInterrupt:)` and its `system_*`
/// funnel with its mocking hook, made small.
public enum SystemCall {
    /// A call by name: what `SystemCallFaults` makes fail.
    public enum Operation: String, Sendable, CaseIterable {
        /// `open(2)` and `openat(2)`.
        case open
        /// `read(2)`, `pread(2)` and `recvmsg(2)`: bytes in.
        case read, pread, recvmsg
        /// `write(2)`, `pwrite(2)` and `sendmsg(2)`: bytes out.
        case write, pwrite, sendmsg
        /// `poll(2)`.
        case poll
        /// `fsync(2)` and `fdatasync(2)`: to the disk.
        case fsync, fdatasync
        /// `ftruncate(2)`, `rename(2)`, `unlink(2)`, `mkdir(2)`.
        case ftruncate, rename, unlink, mkdir
        /// `lstat(2)` and `stat(2)`: what a path is.
        case stat
        /// `rmdir(2)`, `syncfs(2)`.
        case rmdir, syncfs
        /// `link(2)` and `symlink(2)`: a new name.
        case link
        /// `chmod(2)` and `lchown(2)`: a mode, an owner.
        case chmod
        /// `copy_file_range(2)`: bytes from file to file in the kernel.
        case copy
    }

    /// Runs `call` (a system call on `fd`, or on `path`, returning -1 and
    /// setting `errno` on failure), again while it is interrupted; the
    /// failure a test put in its way instead, if any. The one funnel every
    /// wrapper below goes through. Not generic: a generic one called across
    /// modules looked up its `Result` type's metadata at every call.
    public static func perform(_ operation: Operation, fd: Int32 = -1, path: String? = nil,
                               _ call: () -> Int) -> Result<Int, Errno> {
        while true {
            if SystemCallFaults.areArmed, let fault = SystemCallFaults.fault(for: operation, fd: fd, path: path) {
                // An interruption put in is met as a real one is: tried again.
                if fault == .interrupted { continue }
                return .failure(fault)
            }
            let value = call()
            if value != -1 { return .success(value) }
            let number = errno
            if number != EINTR { return .failure(Errno(number)) }
        }
    }

    /// `read(2)` into `buffer`: how many bytes came (0: the end).
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        perform(.read, fd: fd) { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// `pread(2)` into `buffer` from `offset`.
    public static func pread(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Result<Int, Errno> {
        perform(.pread, fd: fd) { Glibc.pread(fd, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// `write(2)` of `buffer`: how many bytes went.
    public static func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        perform(.write, fd: fd) { Glibc.write(fd, buffer.baseAddress, buffer.count) }
    }

    /// `pwrite(2)` of `buffer` at `offset`.
    public static func pwrite(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, at offset: Int64) -> Result<Int, Errno> {
        perform(.pwrite, fd: fd) { Glibc.pwrite(fd, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// `pwritev(2)` of `vectors` at `offset` (one write of several buffers).
    public static func pwritev(_ fd: Int32, _ vectors: UnsafeBufferPointer<iovec>, at offset: Int64) -> Result<Int, Errno> {
        perform(.pwrite, fd: fd) { Glibc.pwritev(fd, vectors.baseAddress, Int32(vectors.count), off_t(offset)) }
    }

    /// `sendmsg(2)` of `message` with `flags`.
    public static func sendmsg(_ fd: Int32, _ message: UnsafePointer<msghdr>, flags: Int32) -> Result<Int, Errno> {
        perform(.sendmsg, fd: fd) { Glibc.sendmsg(fd, message, flags) }
    }

    /// `poll(2)` on `fds` for up to `milliseconds`: how many are ready (0: none in time).
    public static func poll(_ fds: UnsafeMutableBufferPointer<pollfd>, milliseconds: Int32) -> Result<Int32, Errno> {
        perform(.poll) { Int(Glibc.poll(fds.baseAddress, nfds_t(fds.count), milliseconds)) }.map { Int32($0) }
    }

    /// `fsync(2)`: the file's data and metadata on the disk.
    public static func fsync(_ fd: Int32) -> Result<Void, Errno> {
        perform(.fsync, fd: fd) { Int(Glibc.fsync(fd)) }.map { _ in () }
    }

    /// `fdatasync(2)`: the file's data on the disk.
    public static func fdatasync(_ fd: Int32) -> Result<Void, Errno> {
        perform(.fdatasync, fd: fd) { Int(Glibc.fdatasync(fd)) }.map { _ in () }
    }

    /// `ftruncate(2)` to `length` bytes.
    public static func ftruncate(_ fd: Int32, to length: Int64) -> Result<Void, Errno> {
        perform(.ftruncate, fd: fd) { Int(Glibc.ftruncate(fd, off_t(length))) }.map { _ in () }
    }

    /// `open(2)` of `path` with `flags` (and `mode` for a file it makes): the fd.
    public static func open(_ path: String, flags: Int32, mode: mode_t = 0) -> Result<Int32, Errno> {
        let result = perform(.open, path: path) { Int(Glibc.open(path, flags, mode)) }.map { Int32($0) }
        if case .success(let fd) = result { SystemCallFaults.opened(fd, path: path) }
        return result
    }

    /// `openat(2)` of `name` in the directory `directory` (an fd opened from
    /// `directoryPath`, which faults go by): the fd.
    public static func openat(_ directory: Int32, _ name: String, in directoryPath: String, flags: Int32,
                              mode: mode_t = 0) -> Result<Int32, Errno> {
        let path = directoryPath.hasSuffix("/") ? directoryPath + name : directoryPath + "/" + name
        let result = perform(.open, path: path) { Int(Glibc.openat(directory, name, flags, mode)) }.map { Int32($0) }
        if case .success(let fd) = result { SystemCallFaults.opened(fd, path: path) }
        return result
    }

    /// `rename(2)` of `path` to `target`.
    public static func rename(_ path: String, to target: String) -> Result<Void, Errno> {
        perform(.rename, path: path) { Int(Glibc.rename(path, target)) }.map { _ in () }
    }

    /// `unlink(2)` of `path`.
    public static func unlink(_ path: String) -> Result<Void, Errno> {
        perform(.unlink, path: path) { Int(Glibc.unlink(path)) }.map { _ in () }
    }

    /// `mkdir(2)` of `path` with `mode`.
    public static func mkdir(_ path: String, mode: mode_t) -> Result<Void, Errno> {
        perform(.mkdir, path: path) { Int(Glibc.mkdir(path, mode)) }.map { _ in () }
    }

    /// `lstat(2)` of `path`: what it is, a link not followed.
    public static func lstat(_ path: String) -> Result<stat, Errno> {
        var info = Glibc.stat()
        return perform(.stat, path: path) { Int(Glibc.lstat(path, &info)) }.map { _ in info }
    }

    /// `stat(2)` of `path`: what it is, links followed.
    public static func stat(_ path: String) -> Result<stat, Errno> {
        var info = Glibc.stat()
        return perform(.stat, path: path) { Int(Glibc.fstatat(AT_FDCWD, path, &info, 0)) }.map { _ in info }
    }

    /// `fstat(2)` of `fd`.
    public static func fstat(_ fd: Int32) -> Result<stat, Errno> {
        var info = Glibc.stat()
        return perform(.stat, fd: fd) { Int(Glibc.fstat(fd, &info)) }.map { _ in info }
    }

    /// The names in the directory at `path` (`opendir(3)`, `readdir(3)`),
    /// `.` and `..` left out, in the order the file system gives.
    public static func directoryNames(_ path: String) -> Result<[String], Errno> {
        var names: [String] = []
        var readFailure: Int32 = 0
        let opened = perform(.open, path: path) { () -> Int in
            guard let directory = Glibc.opendir(path) else { return -1 }
            defer { Glibc.closedir(directory) }
            names = []
            while true {
                errno = 0
                guard let entry = Glibc.readdir(directory) else {
                    readFailure = errno
                    return 0
                }
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != "." && name != ".." { names.append(name) }
            }
        }
        if case .failure(let error) = opened { return .failure(error) }
        if readFailure != 0 { return .failure(Errno(readFailure)) }
        return .success(names)
    }

    /// Sets the modification time of `path` (a link not followed) to
    /// `nanoseconds` since the epoch, its access time left as it is
    /// (`utimensat(2)`).
    public static func setModificationTime(_ path: String, nanoseconds: Int64) -> Result<Void, Errno> {
        setTimes(path, access: nil, modification: nanoseconds)
    }

    /// Sets the access and modification times of `path` (a link not
    /// followed), in ns since the epoch; nil leaves that one as it is.
    public static func setTimes(_ path: String, access: Int64?, modification: Int64?) -> Result<Void, Errno> {
        // UTIME_OMIT, a macro Swift does not import: ((1l << 30) - 2l).
        let omit = 1_073_741_822
        func spec(_ nanoseconds: Int64?) -> timespec {
            guard let nanoseconds else { return timespec(tv_sec: 0, tv_nsec: omit) }
            return timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        }
        var times = [spec(access), spec(modification)]
        return perform(.stat, path: path) { Int(utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW)) }.map { _ in () }
    }

    /// The first `limit` bytes of the file at `path` (all of a small one),
    /// a link at `path` not followed.
    public static func readFile(_ path: String, limit: Int = 1 << 20) -> Result<[UInt8], Errno> {
        let fd: Int32
        switch open(path, flags: O_RDONLY | O_CLOEXEC | O_NOFOLLOW) {
        case .failure(let error): return .failure(error)
        case .success(let opened): fd = opened
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(limit, 4096))
        while bytes.count < limit {
            switch chunk.withUnsafeMutableBytes({ read(fd, into: $0) }) {
            case .failure(let error): return .failure(error)
            case .success(0): return .success(bytes)
            case .success(let count): bytes += chunk.prefix(min(count, limit - bytes.count))
            }
        }
        return .success(bytes)
    }

    /// Where the symbolic link at `path` points (`readlink(2)`).
    public static func readLink(_ path: String) -> Result<String, Errno> {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.count
        return perform(.stat, path: path) { Int(Glibc.readlink(path, &buffer, count - 1)) }
            .map { String(decoding: buffer.prefix($0).map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    }

    /// `link(2)`: a new name `path` for the file at `existing` (a link
    /// at `existing` not followed).
    public static func link(_ existing: String, at path: String) -> Result<Void, Errno> {
        perform(.link, path: path) { Int(Glibc.linkat(AT_FDCWD, existing, AT_FDCWD, path, 0)) }.map { _ in () }
    }

    /// `symlink(2)`: a symbolic link at `path` pointing to `target`.
    public static func symlink(_ target: String, at path: String) -> Result<Void, Errno> {
        perform(.link, path: path) { Int(Glibc.symlink(target, path)) }.map { _ in () }
    }

    /// `chmod(2)` of `path` (links followed) to `mode`.
    public static func chmod(_ path: String, mode: mode_t) -> Result<Void, Errno> {
        perform(.chmod, path: path) { Int(Glibc.chmod(path, mode)) }.map { _ in () }
    }

    /// `lchown(2)` of `path` (a link not followed) to `owner` and `group`.
    public static func changeOwner(_ path: String, owner: uid_t, group: gid_t) -> Result<Void, Errno> {
        perform(.chmod, path: path) { Int(Glibc.lchown(path, owner, group)) }.map { _ in () }
    }

    /// The file's creation mask (`umask(2)`, read and put back).
    public static func creationMask() -> mode_t {
        let mask = Glibc.umask(0o022)
        _ = Glibc.umask(mask)
        return mask
    }

    /// `path` with every link, `.` and `..` resolved (`realpath(3)`); nil
    /// where some part of it is not there.
    public static func resolvedPath(_ path: String) -> String? {
        guard let resolved = Glibc.realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `rmdir(2)` of `path`.
    public static func rmdir(_ path: String) -> Result<Void, Errno> {
        perform(.rmdir, path: path) { Int(Glibc.rmdir(path)) }.map { _ in () }
    }

    /// `close(2)`, once: never tried again (Linux frees the fd even when
    /// interrupted), and the fd forgotten by the faults.
    public static func close(_ fd: Int32) {
        SystemCallFaults.closed(fd)
        _ = Glibc.close(fd)
    }
}
