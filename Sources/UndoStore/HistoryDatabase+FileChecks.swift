#if canImport(Glibc)
import Glibc
#endif
import UndoCore

/// What is checked and done to a store's file before SQLite opens it.
extension HistoryDatabase {
    /// Creates the file at `path` (0600, never through a link) when it is
    /// missing, so that a new store is private from its first byte: SQLite
    /// would create it 0644 less the umask, and gives its `-wal` and `-shm`
    /// files the database's mode. Not by setting the umask around the open:
    /// the umask belongs to the whole process, so two threads saving and
    /// restoring it interleave and can leave it 0077 for good (the tests'
    /// process, which opens stores on many threads, was found so, its new
    /// folders then closed to the compositors' user).
    static func createPrivately(_ path: String) {
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Refuses, before anything opens it, a store that must be left as it
    /// is: a symbolic link in its place (it is never followed), or a file
    /// that a newer undod wrote (its header's `user_version`, read without
    /// SQLite, which would write to it). Nothing is changed either way.
    static func checkUntouchable(_ path: String) throws(StoreError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        if status.st_mode & S_IFMT == S_IFLNK {
            throw StoreError("\(path) is a symbolic link, which undod does not follow: it is left alone",
                             leftAlone: true)
        }
        let fd = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return }
        defer { Glibc.close(fd) }
        var header = [UInt8](repeating: 0, count: 100)
        let count = header.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, 100) }
        guard count == 100, Array(header.prefix(16)) == Array("SQLite format 3\0".utf8) else { return }
        let version = header[60..<64].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        if version > schemaVersion {
            throw StoreError("\(path) was written by a newer undod (schema \(version), this one knows \(schemaVersion)): "
                + "it is left untouched", leftAlone: true)
        }
    }
}
