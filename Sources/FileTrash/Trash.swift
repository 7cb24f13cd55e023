#if canImport(Glibc)
import Glibc
#endif
public import SystemCalls

/// The FreeDesktop.org trash (specification 1.0), for one user: an item
/// goes to the trash of its own volume — the home trash where it lies on
/// the home trash's file system, else `$top/.Trash/$uid` (a sticky
/// `.Trash` the admin made) or `$top/.Trash-$uid` — by one rename, never a
/// copy, with its `.trashinfo` (written first, under a name taken
/// exclusively) and, for a directory, its line in `directorysizes`. So
/// Nautilus, Dolphin and `gio trash --list` see it, and it comes back by
/// one rename that never replaces what is there.
public struct Trash: Sendable {
    /// The home trash (`$XDG_DATA_HOME/Trash`).
    public let homeTrash: String
    /// The user whose trash it is.
    public let uid: UInt32

    /// The trash of user `uid` whose home trash is `homeTrash`.
    public init(homeTrash: String, uid: UInt32) {
        self.homeTrash = PathName.normalized(homeTrash)
        self.uid = uid
    }

    /// The running user's trash as `environment` places it:
    /// `$XDG_DATA_HOME/Trash`, else `$HOME/.local/share/Trash`; nil where
    /// neither is an absolute path.
    public static func ofUser(environment: [String: String]) -> Trash? {
        let data: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            data = xdg
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            data = home + "/.local/share"
        } else {
            return nil
        }
        return Trash(homeTrash: data + "/Trash", uid: getuid())
    }

    /// Moves the item at `path` (absolute) to the trash of its volume (or
    /// to the trash directory `into`, which must be on its volume), as
    /// deleted at `now` (seconds since the epoch; default: now), marked
    /// with `token` (default: a new one), and says where it went. A
    /// directory's size is recorded in `directorysizes` when `measuring`
    /// (it walks the tree). Nothing changes when it throws.
    public func trash(_ path: String, token: String? = nil, into directory: String? = nil, now: Int? = nil,
                      measuring: Bool = true) throws(TrashError) -> TrashEntry {
        try trash(path, token: token ?? Self.newToken(), into: directory, preferring: nil, now: now,
                  measuring: measuring)
    }

    /// Puts `entry`'s item, back at `entry.originalPath`, in the trash
    /// again as that entry (its token; its name where free): what a redo
    /// does, so that the undo that follows finds it by the same entry.
    public func trashAgain(_ entry: TrashEntry, now: Int? = nil) throws(TrashError) -> TrashEntry {
        guard case .success(let identity) = SystemCall.identity(of: entry.originalPath), identity == entry.identity else {
            throw .changed(path: entry.originalPath)
        }
        return try trash(entry.originalPath, token: entry.token, into: entry.directory, preferring: entry.name, now: now,
                         measuring: true)
    }

    private func trash(_ path: String, token: String, into directory: String?, preferring name: String?, now: Int?,
                       measuring: Bool) throws(TrashError) -> TrashEntry {
        let path = PathName.normalized(path)
        let item: stat
        switch SystemCall.lstat(path) {
        case .success(let info): item = info
        case .failure(let error) where error.rawValue == ENOENT || error.rawValue == ENOTDIR: throw .missing(path: path)
        case .failure(let error): throw .failed(operation: "read", path: path, reason: error.description)
        }
        guard case .success(let identity) = SystemCall.identity(of: path) else { throw .missing(path: path) }
        let trash: TrashDirectory
        if let directory {
            trash = try existing(directory, device: item.st_dev, for: path)
        } else {
            trash = try self.directory(for: path, device: item.st_dev)
        }
        if path == trash.path || path.hasPrefix(trash.path + "/") || path == homeTrash || path.hasPrefix(homeTrash + "/") {
            throw .inTrash(path: path)
        }
        let info = TrashInfo(path: trash.recordedPath(of: path), deletionDate: TrashInfo.date(now ?? Int(time(nil))),
                             token: token)
        let (name, modified) = try reserve(PathName.lastComponent(path), preferring: name, in: trash, info: info)
        let entry = TrashEntry(directory: trash.path, name: name, originalPath: path, identity: identity, token: token,
                               isDirectory: TrashDirectory.isDirectory(item))
        do {
            try Self.move(path, to: entry.trashedPath, operation: "move to the trash")
        } catch {
            _ = SystemCall.unlink(entry.infoPath)
            throw error
        }
        if entry.isDirectory && measuring {
            // A cache: an item in the trash is not worth failing over it.
            try? DirectorySizes(trash: trash).record(name, bytes: DirectorySizes.diskUsage(of: entry.trashedPath),
                                                     infoModified: modified)
        }
        return entry
    }

    /// Records the size of `entry`'s directory in its trash's
    /// `directorysizes` (a cache the specification allows to be filled
    /// later), where the entry is still in the trash: what `trash(…,
    /// measuring: false)` left to do, done after the command. It may run
    /// beside a `restore` of the same entry: the size is written only if
    /// the entry is still there once measured.
    public func measure(_ entry: TrashEntry) {
        guard entry.isDirectory, let found = locate(entry),
              case .success(let info) = SystemCall.stat(found.infoPath) else { return }
        let bytes = DirectorySizes.diskUsage(of: found.trashedPath)
        try? DirectorySizes(trash: TrashDirectory(path: found.directory, top: nil))
            .record(found.name, bytes: bytes, infoModified: Int(info.st_mtim.tv_sec), if: { Self.holds(found) })
    }

    /// Whether `entry`'s item is still in the trash (`locate`).
    public func contains(_ entry: TrashEntry) -> Bool {
        locate(entry) != nil
    }

    /// `entry` as it is in the trash now: under its name, or under
    /// another of the same trash whose `.trashinfo` holds its token; its
    /// item the very one (its identity). Nil when it is no longer there
    /// (emptied, restored, or put back by another program, which writes no
    /// token).
    public func locate(_ entry: TrashEntry) -> TrashEntry? {
        if Self.holds(entry) { return entry }
        guard case .success(let names) = SystemCall.directoryNames(entry.directory + "/info") else { return nil }
        for file in names where file.hasSuffix(".trashinfo") {
            var found = entry
            found.name = String(file.dropLast(".trashinfo".count))
            if found.name != entry.name, Self.holds(found) { return found }
        }
        return nil
    }

    /// Whether `entry`'s name holds its item and its token.
    private static func holds(_ entry: TrashEntry) -> Bool {
        guard case .success(let identity) = SystemCall.identity(of: entry.trashedPath), identity == entry.identity,
              case .success(let bytes) = SystemCall.readFile(entry.infoPath, limit: 64 << 10),
              TrashInfo(parsing: String(decoding: bytes, as: UTF8.self))?.token == entry.token else { return false }
        return true
    }

    /// Takes `entry`'s item out of the trash to `destination` (default:
    /// where it was), by one rename that never replaces anything, and
    /// forgets its `.trashinfo` and size. Nothing changes when it throws.
    public func restore(_ entry: TrashEntry, to destination: String? = nil) throws(TrashError) {
        guard let entry = locate(entry) else { throw .entryGone(name: entry.name, originalPath: entry.originalPath) }
        let target = PathName.normalized(destination ?? entry.originalPath)
        let folder = PathName.parent(of: target)
        guard case .success(let info) = SystemCall.stat(folder), TrashDirectory.isDirectory(info) else {
            throw .folderGone(path: target, folder: folder)
        }
        try Self.move(entry.trashedPath, to: target, operation: "take out of the trash")
        _ = SystemCall.unlink(entry.infoPath)
        if entry.isDirectory {
            try? DirectorySizes(trash: TrashDirectory(path: entry.directory, top: nil)).remove(entry.name)
        }
    }

    // MARK: Where an item goes

    /// The trash an item at `path` (absolute; it need not exist) would go
    /// to: that of its folder's volume.
    public func directory(forItemAt path: String) throws(TrashError) -> String {
        let path = PathName.normalized(path)
        let folder = PathName.parent(of: path)
        guard case .success(let info) = SystemCall.lstat(folder) else {
            throw .folderGone(path: path, folder: folder)
        }
        return try directory(for: path, device: info.st_dev).path
    }

    /// The trash for an item at `path` on `device`, ready to take it.
    private func directory(for path: String, device: dev_t) throws(TrashError) -> TrashDirectory {
        let home = TrashDirectory(path: homeTrash, top: nil)
        if (try? makeHomeTrash()) != nil, case .success(let info) = SystemCall.stat(homeTrash), info.st_dev == device {
            try home.prepare()
            return home
        }
        let top = try volumeTop(of: path, device: device)
        do throws(TrashError) {
            return try TrashDirectory.onVolume(top: top, uid: uid)
        } catch {
            throw .noTrash(path: path, volume: top, reason: error.description)
        }
    }

    /// The trash directory at `path` (one this trash made: the home trash,
    /// a `.Trash-$uid` or a `.Trash/$uid`), ready, for an item at `item`
    /// on `device`, which must be its volume's.
    private func existing(_ path: String, device: dev_t, for item: String) throws(TrashError) -> TrashDirectory {
        let path = PathName.normalized(path)
        var top: String?
        for suffix in ["/.Trash-\(uid)", "/.Trash/\(uid)"] where path.hasSuffix(suffix) && path != homeTrash {
            let prefix = String(path.dropLast(suffix.count))
            top = prefix.isEmpty ? "/" : prefix
        }
        let trash = TrashDirectory(path: path, top: top)
        if top == nil { try Self.makeFolders(path) }
        try trash.prepare()
        guard case .success(let info) = SystemCall.stat(path), info.st_dev == device else {
            throw .noTrash(path: item, volume: top ?? path, reason: "the trash at \(path) is on another volume")
        }
        return trash
    }

    /// Makes the home trash and the folders above it that are missing.
    private func makeHomeTrash() throws(TrashError) {
        try Self.makeFolders(homeTrash)
    }

    /// Makes the folder at `path` and those above it that are missing (0700).
    private static func makeFolders(_ path: String) throws(TrashError) {
        var made = ""
        for component in path.split(separator: "/") {
            made += "/" + component
            if case .success(let info) = SystemCall.stat(made), TrashDirectory.isDirectory(info) { continue }
            try TrashDirectory.makeDirectory(made, mode: 0o700)
        }
    }

    /// The top of the volume holding `path` (on `device`): the highest
    /// folder above it on the same device. An item that is itself the top
    /// of a volume cannot move.
    private func volumeTop(of path: String, device: dev_t) throws(TrashError) -> String {
        var folder = PathName.parent(of: path)
        guard case .success(let info) = SystemCall.lstat(folder), info.st_dev == device else {
            throw .volumeTop(path: path)
        }
        while folder != "/" {
            let above = PathName.parent(of: folder)
            guard case .success(let info) = SystemCall.lstat(above), info.st_dev == device else { break }
            folder = above
        }
        return folder
    }

    // MARK: Names

    /// Takes a name for `base` in `trash` by making its `.trashinfo`
    /// exclusively (`preferred` first where given, then `base`,
    /// `stem.2.ext`, `stem.3.ext`, …, skipping names whose `files` entry
    /// exists), writes `info` to it and syncs it; the name and the info
    /// file's modification time.
    private func reserve(_ base: String, preferring preferred: String?, in trash: TrashDirectory,
                         info: TrashInfo) throws(TrashError) -> (name: String, modified: Int) {
        let text = Array(info.text.utf8)
        for attempt in (preferred == nil ? 1 : 0)...10_000 {
            let name = attempt == 0 ? preferred ?? base : Self.candidate(base, attempt)
            let infoPath = trash.info + "/" + name + ".trashinfo"
            let fd: Int32
            switch SystemCall.open(infoPath, flags: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode: 0o600) {
            case .failure(let error) where error.rawValue == EEXIST: continue
            case .failure(let error): throw .failed(operation: "write", path: infoPath, reason: error.description)
            case .success(let opened): fd = opened
            }
            if case .success = SystemCall.lstat(trash.files + "/" + name) {
                SystemCall.close(fd)
                _ = SystemCall.unlink(infoPath)
                continue
            }
            let written = SmallFile.write(text, to: fd)
            let modified = (try? SystemCall.fstat(fd).get()).map { Int($0.st_mtim.tv_sec) } ?? Int(time(nil))
            SystemCall.close(fd)
            if case .failure(let error) = written {
                _ = SystemCall.unlink(infoPath)
                throw .failed(operation: "write", path: infoPath, reason: error.description)
            }
            return (name, modified)
        }
        throw .failed(operation: "name", path: base, reason: "10,000 items of that name are in the trash")
    }

    /// The `attempt`th name for `base`: `base`, then `stem.N.ext`; cut to
    /// fit a file name with `.trashinfo` after it (255 bytes).
    static func candidate(_ base: String, _ attempt: Int) -> String {
        var stem = Substring(base)
        var ext = Substring("")
        if attempt > 1, let dot = base.lastIndex(of: "."), dot != base.startIndex {
            stem = base[..<dot]
            ext = base[dot...]
        }
        let suffix = attempt > 1 ? ".\(attempt)" + ext : ""
        while stem.utf8.count + suffix.utf8.count + ".trashinfo".utf8.count > 255 { stem = stem.dropLast() }
        return String(stem) + suffix
    }

    // MARK: Paths

    /// Moves `from` to `to` unless something is at `to` (`renameNoReplace`).
    private static func move(_ from: String, to: String, operation: String) throws(TrashError) {
        switch SystemCall.renameNoReplace(from, to: to) {
        case .success: return
        case .failure(let error) where error.rawValue == EEXIST || error.rawValue == ENOTEMPTY:
            throw .destinationTaken(path: to)
        case .failure(let error):
            throw .failed(operation: operation, path: from, reason: error.description)
        }
    }

    /// A new token: 128 random bits in hex.
    public static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return [generator.next(), generator.next()].map { (word: UInt64) in
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
