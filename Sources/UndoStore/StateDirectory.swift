#if canImport(Glibc)
import Glibc
#endif
import SystemCalls

/// The directory that holds the history: created 0700, and refused when
/// another user owns it or others can write to it (they could swap the
/// database under us).
public enum StateDirectory {
    /// Creates `path` (and missing parents) if needed, then checks it.
    public static func prepare(_ path: String) throws(StoreError) {
        var info = stat()
        if stat(path, &info) != 0 {
            try create(path)
            guard stat(path, &info) == 0 else {
                throw StoreError("cannot create the state directory \(path)", readOnly: true)
            }
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw StoreError("the state path \(path) is not a directory")
        }
        guard info.st_uid == getuid() else {
            throw StoreError("the state directory \(path) belongs to another user; use a directory of your own")
        }
        guard info.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            throw StoreError("the state directory \(path) is writable by others; make it private with chmod 700 \(path)")
        }
    }

    private static func create(_ path: String) throws(StoreError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            var info = stat()
            if stat(prefix, &info) == 0 { continue }
            let isLast = prefix.hasSuffix(String(path.split(separator: "/").last ?? ""))
                && prefix.split(separator: "/").count == path.split(separator: "/").count
            if case .failure(let error) = SystemCall.mkdir(prefix, mode: isLast ? 0o700 : 0o755), error != Errno(EEXIST) {
                // Read-only, no permission, full: there is no store to read, and none can be made.
                throw StoreError("cannot create the state directory \(path): \(error)", readOnly: true)
            }
        }
        _ = chmod(path, 0o700)
    }
}
