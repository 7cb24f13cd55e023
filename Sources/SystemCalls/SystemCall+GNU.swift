#if canImport(Glibc)
import Glibc
#endif
internal import CShim

/// The calls Swift's Glibc does not declare (they need `_GNU_SOURCE`),
/// through `CShim`, in the same funnel as every other.
extension SystemCall {
    /// `rename(2)` of `path` to `target` unless `target` exists
    /// (`RENAME_NOREPLACE`): `EEXIST` when it does. Where the file system
    /// cannot rename so (`EINVAL`), a check that `target` is free, then a
    /// plain rename.
    public static func renameNoReplace(_ path: String, to target: String) -> Result<Void, Errno> {
        let result = perform(.rename, path: path) { Int(cshim_rename_noreplace(path, target)) }.map { _ in () }
        guard case .failure(let error) = result, error.rawValue == EINVAL else { return result }
        if case .success = lstat(target) { return .failure(Errno(EEXIST)) }
        return rename(path, to: target)
    }

    /// `copy_file_range(2)` of up to `count` bytes from `source` to
    /// `target`, each at its own offset: how many went (0: the end).
    /// `EXDEV`, `EINVAL` or `ENOSYS` where the kernel cannot copy so.
    public static func copyRange(from source: Int32, to target: Int32, count: Int) -> Result<Int, Errno> {
        perform(.copy, fd: target) { cshim_copy_file_range(source, target, count) }
    }

    /// `syncfs(2)`: the file system holding `fd` written out.
    public static func syncfs(_ fd: Int32) -> Result<Void, Errno> {
        perform(.syncfs, fd: fd) { Int(cshim_syncfs(fd)) }.map { _ in () }
    }

    /// `statx(2)` of `path`, a link not followed: which file it is.
    public static func identity(of path: String) -> Result<FileIdentity, Errno> {
        var device: UInt64 = 0
        var inode: UInt64 = 0
        var birth: Int64 = 0
        return perform(.stat, path: path) { Int(cshim_file_identity(path, &device, &inode, &birth)) }
            .map { _ in FileIdentity(device: device, inode: inode, birth: birth) }
    }
}
