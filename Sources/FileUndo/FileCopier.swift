#if canImport(Glibc)
import Glibc
#endif
import FileTrash
import SystemCalls

/// Copies a file, a symbolic link or a folder with everything in it, as
/// `cp` does, under a hidden name beside the destination that takes the
/// destination's name only once the copy is whole (one rename, refused if
/// the name was taken meanwhile): a copy killed halfway never stands where
/// the user looks. What it could not copy inside a folder it says, as
/// `cp -r` does, and copies the rest.
struct FileCopier {
    /// A path, and the same path as the user typed it (for messages).
    struct Place {
        /// Absolute.
        var path: String
        /// As typed.
        var shown: String

        func appending(_ name: String) -> Place {
            Place(path: path == "/" ? "/" + name : path + "/" + name,
                  shown: shown.hasSuffix("/") ? shown + name : shown + "/" + name)
        }
    }

    /// Keeps the mode, owner and times (`cp -p`; `mv` across volumes),
    /// else a copy's mode is its source's less the creation mask.
    let preserving: Bool
    /// What is said for each item copied (`cp -v`): its source, and where
    /// it lands, as typed.
    let copied: ((String, String) -> Void)?
    /// The command's name in messages (`cp`, `mv`).
    let command: String
    /// Where messages go.
    let terminal: any CommandTerminal
    private let mask = SystemCall.creationMask()

    init(command: String, preserving: Bool, terminal: any CommandTerminal, copied: ((String, String) -> Void)? = nil) {
        self.command = command
        self.preserving = preserving
        self.terminal = terminal
        self.copied = copied
    }

    /// Copies `source` (a link at it followed when `following`) to
    /// `destination`, which must not exist: what was made, or nil (the
    /// message said, nothing made). `complete` is false when an item
    /// inside a folder could not be copied (said; the rest is there).
    func copy(_ source: Place, to destination: Place, following: Bool, complete: inout Bool) -> MadeItem? {
        let info: stat
        switch following ? SystemCall.stat(source.path) : SystemCall.lstat(source.path) {
        case .success(let found): info = found
        case .failure(let error):
            terminal.warn("\(command): cannot stat \(quoted(source.shown)): \(error)")
            return nil
        }
        let hidden = Place(path: PathName.parent(of: destination.path) + "/.undod-copy-" + Trash.newToken(),
                           shown: destination.shown)
        guard copyItem(source, info, to: hidden, following: following, complete: &complete) else { return nil }
        if case .failure(let error) = SystemCall.renameNoReplace(hidden.path, to: destination.path) {
            Self.discard(hidden.path)
            terminal.warn("\(command): cannot create \(quoted(destination.shown)): \(error)")
            return nil
        }
        guard case .success(let made) = SystemCall.lstat(destination.path) else { return nil }
        switch made.st_mode & S_IFMT {
        case S_IFDIR: return TreeDigest.of(destination.path).map { .tree(digest: $0) }
        default: return .file(size: UInt64(made.st_size), modified: FileTimes(made).modification)
        }
    }

    /// Copies the item `info` at `source` to `target`; false where even
    /// its top could not be made (said).
    private func copyItem(_ source: Place, _ info: stat, to target: Place, following: Bool,
                          complete: inout Bool) -> Bool {
        let made: Bool
        switch info.st_mode & S_IFMT {
        case S_IFREG: made = copyFile(source, following: following, to: target)
        case S_IFLNK: made = copyLink(source, to: target)
        case S_IFDIR: made = copyFolder(source, to: target, complete: &complete)
        default:
            terminal.warn("\(command): cannot copy \(quoted(source.shown)): undod-files copies files, folders and "
                          + "links only (`command \(command)` copies the rest)")
            return false
        }
        guard made else { return false }
        finish(target.path, like: info)
        if info.st_mode & S_IFMT != S_IFDIR { copied?(source.shown, target.shown) }
        return true
    }

    private func copyFile(_ source: Place, following: Bool, to target: Place) -> Bool {
        let input: Int32
        switch SystemCall.open(source.path, flags: O_RDONLY | O_CLOEXEC | O_NOCTTY | (following ? 0 : O_NOFOLLOW)) {
        case .success(let fd): input = fd
        case .failure(let error):
            terminal.warn("\(command): cannot open \(quoted(source.shown)) for reading: \(error)")
            return false
        }
        defer { SystemCall.close(input) }
        let output: Int32
        switch SystemCall.open(target.path, flags: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, mode: 0o600) {
        case .success(let fd): output = fd
        case .failure(let error):
            terminal.warn("\(command): cannot create regular file \(quoted(target.shown)): \(error)")
            return false
        }
        defer { SystemCall.close(output) }
        if case .failure(let error) = Self.copyBytes(from: input, to: output) {
            terminal.warn("\(command): error writing \(quoted(target.shown)): \(error)")
            _ = SystemCall.unlink(target.path)
            return false
        }
        return true
    }

    /// Every byte of `input` to `output`: in the kernel where it can
    /// (`copy_file_range`, a clone on file systems that share blocks),
    /// else through a buffer.
    static func copyBytes(from input: Int32, to output: Int32) -> Result<Void, Errno> {
        while true {
            switch SystemCall.copyRange(from: input, to: output, count: 1 << 30) {
            case .success(0): return .success(())
            case .success: continue
            case .failure(let error) where [EXDEV, EINVAL, ENOSYS, EOPNOTSUPP].contains(error.rawValue): break
            case .failure(let error): return .failure(error)
            }
            break
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 17)
        while true {
            let count: Int
            switch buffer.withUnsafeMutableBytes({ SystemCall.read(input, into: $0) }) {
            case .success(0): return .success(())
            case .success(let read): count = read
            case .failure(let error): return .failure(error)
            }
            var written = 0
            while written < count {
                switch buffer.withUnsafeBytes({ SystemCall.write(output, UnsafeRawBufferPointer(rebasing: $0[written..<count])) }) {
                case .success(let wrote): written += wrote
                case .failure(let error): return .failure(error)
                }
            }
        }
    }

    private func copyLink(_ source: Place, to target: Place) -> Bool {
        guard case .success(let destination) = SystemCall.readLink(source.path) else {
            terminal.warn("\(command): cannot read symbolic link \(quoted(source.shown))")
            return false
        }
        if case .failure(let error) = SystemCall.symlink(destination, at: target.path) {
            terminal.warn("\(command): cannot create symbolic link \(quoted(target.shown)): \(error)")
            return false
        }
        return true
    }

    private func copyFolder(_ source: Place, to target: Place, complete: inout Bool) -> Bool {
        if case .failure(let error) = SystemCall.mkdir(target.path, mode: 0o700) {
            terminal.warn("\(command): cannot create directory \(quoted(target.shown)): \(error)")
            return false
        }
        copied?(source.shown, target.shown)
        let names: [String]
        switch SystemCall.directoryNames(source.path) {
        case .success(let found): names = found
        case .failure(let error):
            terminal.warn("\(command): cannot access \(quoted(source.shown)): \(error)")
            complete = false
            return true
        }
        for name in names.sorted() {
            let from = source.appending(name)
            let info: stat
            switch SystemCall.lstat(from.path) {
            case .success(let found): info = found
            case .failure(let error):
                terminal.warn("\(command): cannot stat \(quoted(from.shown)): \(error)")
                complete = false
                continue
            }
            if !copyItem(from, info, to: target.appending(name), following: false, complete: &complete) {
                complete = false
            }
        }
        return true
    }

    /// Gives the copy at `path` its mode (and, preserving, its owner and
    /// times) from the source's `info`.
    private func finish(_ path: String, like info: stat) {
        let isLink = info.st_mode & S_IFMT == S_IFLNK
        let mode = info.st_mode & 0o7777
        if !isLink {
            _ = SystemCall.chmod(path, mode: preserving ? mode : mode & ~mask & 0o777)
        }
        guard preserving else { return }
        _ = SystemCall.changeOwner(path, owner: info.st_uid, group: info.st_gid)
        if !isLink && mode & (S_ISUID | S_ISGID) != 0 { _ = SystemCall.chmod(path, mode: mode) }
        _ = FileTimes(info).set(on: path)
    }

    /// Removes what a copy made at `path` (only ever a copy this made,
    /// whose source is still there), folders and all.
    static func discard(_ path: String) {
        guard case .success(let info) = SystemCall.lstat(path) else { return }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            _ = SystemCall.unlink(path)
            return
        }
        _ = SystemCall.chmod(path, mode: 0o700)
        for name in (try? SystemCall.directoryNames(path).get()) ?? [] { discard(path + "/" + name) }
        _ = SystemCall.rmdir(path)
    }
}
