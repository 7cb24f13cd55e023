#if canImport(Glibc)
import Glibc
#endif
import SystemCalls

/// One trash directory of the FreeDesktop trash specification: the home
/// trash (`$XDG_DATA_HOME/Trash`) or a volume's (`$top/.Trash/$uid` where
/// the admin made a sticky `.Trash`, else `$top/.Trash-$uid`), with its
/// `files` and `info` folders.
struct TrashDirectory: Equatable {
    /// The trash directory.
    let path: String
    /// The top of its volume, which a volume trash's `Path=` is relative to;
    /// nil for the home trash, whose paths are absolute.
    let top: String?

    var files: String { path + "/files" }
    var info: String { path + "/info" }

    /// What `.trashinfo`'s `Path=` says of `original` here.
    func recordedPath(of original: String) -> String {
        guard let top else { return original }
        let prefix = top == "/" ? "/" : top + "/"
        return original.hasPrefix(prefix) ? String(original.dropFirst(prefix.count)) : original
    }

    /// Makes `files` and `info` where they are missing (mode 0700), and
    /// checks that each is a directory, not a link.
    func prepare() throws(TrashError) {
        for folder in [files, info] {
            try Self.makeDirectory(folder, mode: 0o700)
        }
    }

    /// The volume trash on the volume whose top is `top`, for user `uid`:
    /// `$top/.Trash/$uid` where `$top/.Trash` is a real directory with the
    /// sticky bit (made by the admin), else `$top/.Trash-$uid`, made if
    /// missing, and its folders made; why not where neither may be used.
    static func onVolume(top: String, uid: UInt32) throws(TrashError) -> TrashDirectory {
        let base = top == "/" ? "" : top
        let shared = base + "/.Trash"
        if case .success(let info) = SystemCall.lstat(shared), isDirectory(info), info.st_mode & S_ISVTX != 0 {
            let mine = shared + "/\(uid)"
            let trash = TrashDirectory(path: mine, top: top)
            if (try? makeDirectory(mine, mode: 0o700, owner: uid)) != nil, (try? trash.prepare()) != nil {
                return trash
            }
        }
        let own = base + "/.Trash-\(uid)"
        try makeDirectory(own, mode: 0o700, owner: uid)
        let trash = TrashDirectory(path: own, top: top)
        try trash.prepare()
        return trash
    }

    /// Makes the directory at `path` with `mode` unless it exists, then
    /// checks it is a directory (not a link to one) and, with `owner`,
    /// that the user owns it.
    static func makeDirectory(_ path: String, mode: mode_t, owner: UInt32? = nil) throws(TrashError) {
        if case .failure(let error) = SystemCall.mkdir(path, mode: mode), error.rawValue != EEXIST {
            throw .failed(operation: "make the folder", path: path, reason: error.description)
        }
        switch SystemCall.lstat(path) {
        case .failure(let error):
            throw .failed(operation: "read", path: path, reason: error.description)
        case .success(let info):
            guard isDirectory(info) else {
                throw .failed(operation: "use", path: path, reason: "it is not a folder (a link or a file)")
            }
            if let owner, info.st_uid != owner {
                throw .failed(operation: "use", path: path, reason: "another user owns it")
            }
        }
    }

    /// Whether `info` is a directory's (not a link's).
    static func isDirectory(_ info: stat) -> Bool { info.st_mode & S_IFMT == S_IFDIR }
}
