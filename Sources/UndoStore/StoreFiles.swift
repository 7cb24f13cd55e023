#if canImport(Glibc)
import Glibc
#endif
import SystemCalls

/// The store's files in its state directory: the database
/// (`history.sqlite3`, SQLite's `-wal` and `-shm` beside it), the journal
/// (`history.journal`), the payload files' directory (`payloads`), and the
/// `lock` file whose `flock` keeps a second undod off the directory. A
/// corrupt store's files are moved aside together.
final class StoreFiles {
    /// The database file.
    let database: String
    /// The journal's file.
    let journal: String
    /// The directory of the groups kept in files of their own.
    let payloadFiles: PayloadFiles
    /// The directory, as it was named.
    private let directory: String
    /// The directory, ending in `/`.
    private let base: String
    /// The open `lock` file whose lock says this process owns the store
    /// (-1 until `lock`, and when only reading).
    private var lockDescriptor: Int32 = -1

    /// The files of the store in `directory`, not yet touched.
    init(in directory: String) {
        self.directory = directory
        base = directory.hasSuffix("/") ? directory : directory + "/"
        database = base + "history.sqlite3"
        journal = base + "history.journal"
        payloadFiles = PayloadFiles(base: base)
    }

    /// Takes the directory's lock, for as long as this process lives or
    /// until `unlock`; throws when another process holds it, and a
    /// read-only error when the lock file cannot be made.
    func lock() throws(StoreError) {
        switch SystemCall.open(base + "lock", flags: O_RDWR | O_CREAT | O_CLOEXEC, mode: 0o600) {
        case .success(let fd):
            lockDescriptor = fd
        case .failure(let error):
            // Read-only, no permission, full: nothing can be written there.
            throw StoreError("cannot create \(base)lock: \(error)", readOnly: true)
        }
        guard flock(lockDescriptor, LOCK_EX | LOCK_NB) == 0 else {
            unlock()
            throw StoreError("another undod is already running with the state directory \(directory)")
        }
    }

    /// Lets the directory's lock go.
    func unlock() {
        if lockDescriptor >= 0 { SystemCall.close(lockDescriptor) }
        lockDescriptor = -1
    }

    /// The database file's size in bytes; nil when there is none.
    var databaseSize: Int64? {
        var status = stat()
        return stat(database, &status) == 0 ? Int64(status.st_size) : nil
    }

    /// Makes the database's files private (0600), whatever mode they came with.
    func makePrivate() {
        for suffix in ["", "-wal", "-shm"] { _ = chmod(database + suffix, 0o600) }
    }

    /// Renames the store's files (its journal and its payload files'
    /// directory too) to `…corrupt-<now>`; returns the database's new path.
    func moveAside(now: Int64) -> String {
        let target = "\(database).corrupt-\(now)"
        for suffix in ["", "-wal", "-shm"] { _ = SystemCall.rename(database + suffix, to: target + suffix) }
        _ = SystemCall.rename(journal, to: "\(journal).corrupt-\(now)")
        payloadFiles.moveAside(now: now)
        return target
    }
}
