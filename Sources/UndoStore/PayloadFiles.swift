import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Locking
public import UndoCore
import SystemCalls

/// The directory `payloads/` beside the database, where each group whose
/// actions came in a large push (`threshold`) keeps them in a file of its
/// own; the group's row names the file (`file`) and holds its checksum.
/// Names are made when the file is written (`<start time>-<pid>-<n>`) and
/// never reused, so no file is renamed: everything on disk is done by the
/// writer's thread before the push is handled.
///
/// Why: SQLite has one writer, and copying a 60 MiB group into it held the
/// loop (and every other client) for hundreds of milliseconds, then the
/// checkpointer copied it again. A file is written by a thread of its own
/// while the call waits in its lane (the push's preparation, `PushPreparation`); the
/// loop then commits a small row. Durability is the database's: a file is
/// written whole and synced (`fdatasync`), and its name synced with the
/// directory, on the writer's thread, before the push is handled and the
/// row naming it committed, so a SIGKILL at any moment loses nothing
/// answered, and no row outlives an OS crash without its file (a file may
/// outlive its row: the sweep removes it).
///
/// A file no group adopted is removed when its `PayloadFile` goes (a push
/// refused or merged, a client that left first); files no row names after
/// a crash are removed when the store is loaded (`sweep`). Files are created 0600 and never written through a
/// symbolic link; a `payloads` that is not a directory of ours is never
/// written to or removed from (large groups then go into the database, as
/// before; files it already holds are still read).
public final class PayloadFiles: Sendable {
    /// From this many bytes of actions a push to a persistent stack is
    /// stored in a file (1 MiB).
    public static let threshold = 1 << 20
    /// The directory.
    public let path: String
    /// The writer's thread: writes, zeroes and removes files in order.
    private let queue = DispatchQueue(label: "org.undod.payload-files")
    /// The number in the next file's name.
    private let serial = Lock<UInt64>(0)
    /// What every name this run makes starts with: when it started, and
    /// its process id.
    private let namePrefix: String

    /// The directory `payloads` in the state directory `base` (ending in `/`).
    init(base: String) {
        path = base + "payloads"
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        namePrefix = "\(Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec))-\(getpid())-"
    }

    /// Creates the directory (0700) if it is missing; false when it is
    /// anything but a directory of this user's (a link is not followed).
    func prepare() -> Bool {
        if case .failure(let error) = SystemCall.mkdir(path, mode: 0o700), error != Errno(EEXIST) { return false }
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid() else {
            return false
        }
        return true
    }

    /// The path of the file named `name`.
    func path(of name: String) -> String { "\(path)/\(name)" }

    /// Whether `name` is one `write` could have made (a row read from disk
    /// names nothing outside the directory): digits and dashes only.
    static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count < 64 && name.utf8.allSatisfy { $0 == UInt8(ascii: "-") || (48...57).contains($0) }
    }

    // MARK: Writing, on the writer's thread

    /// Writes `actions` to a new file on the writer's thread, which then
    /// calls `then` with it, or with nil when it could not be written (the
    /// push then stores its actions in the database, as a small one does).
    public func write(_ actions: EncodedActions, then: @escaping @Sendable (PayloadFile?) -> Void) {
        let number = serial.withLock { value in
            value += 1
            return value
        }
        let name = namePrefix + String(number)
        let file = path(of: name)
        let directory = path
        queue.async {
            let checksum = PayloadChecksum.of(actions.buffer)
            guard Self.writeWhole(actions.buffer, to: file), Self.sync(directory: directory) else {
                _ = SystemCall.unlink(file)
                return then(nil)
            }
            then(PayloadFile(name: name, path: file, actions: actions, checksum: checksum))
        }
    }

    /// Removes the files named `names` on the writer's thread, each
    /// overwritten with zeros (and synced) first when `zeroing` (a stack
    /// deleted for good, as the database zeroes its rows).
    public func remove(_ names: [String], zeroing: Bool) {
        guard !names.isEmpty else { return }
        let paths = names.filter(Self.isName).map(path(of:))
        queue.async {
            for file in paths {
                if zeroing { Self.zero(file) }
                _ = SystemCall.unlink(file)
            }
        }
    }

    /// Waits until everything handed to the writer so far is done.
    public func drain() {
        queue.sync {}
    }

    // MARK: On the loop

    /// The bytes of the file `name` of group `id`, whole; throws a
    /// corruption naming the group when it is missing, not a plain file, or
    /// cannot be read.
    func read(_ name: String, ofGroup id: UInt64) throws(StoreError) -> [UInt8] {
        let file = path(of: name)
        guard Self.isName(name) else {
            throw StoreError("group \(id) names a payload file undod never writes (\(name)); the store is corrupt",
                             corruption: true)
        }
        let fd: Int32
        switch SystemCall.open(file, flags: O_RDONLY | O_NOFOLLOW | O_CLOEXEC) {
        case .success(let opened): fd = opened
        case .failure(let error):
            throw StoreError("the payload file of group \(id) (\(file)) cannot be opened: \(error); the store is "
                + "corrupt", corruption: true)
        }
        defer { SystemCall.close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size < 1 << 40 else {
            throw StoreError("the payload file of group \(id) (\(file)) is not a file undod wrote; the store is corrupt",
                             corruption: true)
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var done = 0
        while done < bytes.count {
            let read = bytes.withUnsafeMutableBytes {
                SystemCall.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[done...]))
            }
            guard case .success(let count) = read, count > 0 else {
                throw StoreError("the payload file of group \(id) (\(file)) cannot be read whole; the store is corrupt",
                                 corruption: true)
            }
            done += count
        }
        return bytes
    }

    /// Removes every file in the directory that `kept` does not name: what
    /// a crash left behind (at load, before any new file is written).
    public func sweep(keeping kept: Set<String>) {
        guard let directory = opendir(path) else { return }
        defer { closedir(directory) }
        var doomed: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name != ".", name != ".." else { continue }
            if kept.contains(name) { continue }
            doomed.append(name)
        }
        for name in doomed { _ = SystemCall.unlink("\(path)/\(name)") }
    }

    /// Moves the directory aside with a store moved aside as corrupt
    /// (`…corrupt-<now>`, or `…corrupt-<now>-N` when that is taken), so that
    /// its files go with their rows and no sweep of the fresh store removes
    /// them.
    func moveAside(now: Int64) {
        for attempt in 0..<100 {
            let target = attempt == 0 ? "\(path).corrupt-\(now)" : "\(path).corrupt-\(now)-\(attempt)"
            switch SystemCall.rename(path, to: target) {
            case .success: return
            case .failure(let error) where error == Errno(ENOENT): return
            case .failure: continue
            }
        }
    }

    // MARK: Files

    /// Writes `bytes` to a new file at `file` (0600, never through a link).
    private static func writeWhole(_ bytes: [UInt8], to file: String) -> Bool {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        let opened = SystemCall.open(file, flags: flags, mode: 0o600)
        guard case .success(let fd) = opened else { return false }
        defer { SystemCall.close(fd) }
        return bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                guard case .success(let count) = SystemCall.write(fd, UnsafeRawBufferPointer(rebasing: buffer[done...])),
                      count > 0 else { return false }
                done += count
            }
            // On disk before any row names it (a row may be synced by the
            // checkpointer long before the OS would write the file).
            if case .success = SystemCall.fdatasync(fd) { return true }
            return false
        }
    }

    /// Syncs `directory`, so that the names made in it last.
    private static func sync(directory: String) -> Bool {
        guard case .success(let fd) = SystemCall.open(directory, flags: O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        else { return false }
        defer { SystemCall.close(fd) }
        if case .success = SystemCall.fsync(fd) { return true }
        return false
    }

    /// Overwrites `file` with zeros and syncs it (before it is unlinked).
    private static func zero(_ file: String) {
        guard case .success(let fd) = SystemCall.open(file, flags: O_WRONLY | O_NOFOLLOW | O_CLOEXEC) else { return }
        defer { SystemCall.close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return }
        _ = FileZeroing.overwrite(fd, from: 0, to: Int64(status.st_size))
    }
}
