#if canImport(Glibc)
import Glibc
#endif
import SystemCalls

/// An item's access and modification times, in ns since the epoch.
public struct FileTimes: Sendable, Equatable {
    /// The access time.
    public var access: Int64
    /// The modification time.
    public var modification: Int64

    /// Times with these values.
    public init(access: Int64, modification: Int64) {
        self.access = access
        self.modification = modification
    }

    /// The times `info` holds.
    init(_ info: stat) {
        self.init(access: Int64(info.st_atim.tv_sec) * 1_000_000_000 + Int64(info.st_atim.tv_nsec),
                  modification: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }

    /// The times of the item at `path` now (a link not followed).
    static func of(_ path: String) -> FileTimes? {
        guard case .success(let info) = SystemCall.lstat(path) else { return nil }
        return FileTimes(info)
    }

    /// Sets these times on the item at `path`.
    func set(on path: String) -> Result<Void, Errno> {
        SystemCall.setTimes(path, access: access, modification: modification)
    }
}
