#if canImport(Glibc)
import Glibc
#endif
public import FileTrash
import SystemCalls

/// Undoes and redoes a command's recorded steps against the files as they
/// are now: each step only while the files are as the command (or the
/// last undo or redo) left them, else a sentence naming the path. All or
/// nothing: when a step is refused, those already done are done back, and
/// the folders they touched get their times back. Done, the folders the
/// command changed get the time they had before it (an undo) or after it
/// (a redo), where nobody changed them since.
public struct StepReplay: Sendable {
    /// The trash things go to and come back from.
    public let trash: Trash

    /// A replay on `trash`.
    public init(trash: Trash) {
        self.trash = trash
    }

    /// Undoes `change`: its steps, the last first.
    public func undo(_ change: RecordedChange) throws(FileUndoError) {
        try replay(change.steps.reversed(), folders: change.folders, backward: true)
    }

    /// Redoes `change`: its steps, the first first.
    public func redo(_ change: RecordedChange) throws(FileUndoError) {
        try replay(change.steps, folders: change.folders, backward: false)
    }

    private func replay(_ steps: [FileStep], folders: [FolderTime], backward: Bool) throws(FileUndoError) {
        // The folders as the command (or the last replay) left them, and
        // those not there now (the replay may bring them back): only those
        // get their time set, once they are there and the very folders.
        let settled = folders.filter { folder in
            guard case .success(let identity) = SystemCall.identity(of: folder.path) else { return true }
            return identity == folder.identity && FolderTime.modified(folder.path) == (backward ? folder.after : folder.before)
        }
        var touched: [(path: String, modified: Int64)] = []
        var done: [FileStep] = []
        for step in steps {
            for path in step.paths {
                let folder = PathName.parent(of: path)
                if !touched.contains(where: { $0.path == folder }), let modified = FolderTime.modified(folder) {
                    touched.append((folder, modified))
                }
            }
            do {
                try apply(step, backward: backward)
                done.append(step)
            } catch {
                // Back as it was: each done step the other way, the last
                // first, and the folders they touched at their times.
                for undone in done.reversed() { try? apply(undone, backward: !backward) }
                for folder in touched.reversed() {
                    _ = SystemCall.setModificationTime(folder.path, nanoseconds: folder.modified)
                }
                throw error
            }
        }
        for folder in settled where (try? SystemCall.identity(of: folder.path).get()) == folder.identity {
            _ = SystemCall.setModificationTime(folder.path, nanoseconds: backward ? folder.before : folder.after)
        }
    }

    private func apply(_ step: FileStep, backward: Bool) throws(FileUndoError) {
        switch step {
        case .trashed(let entry):
            if backward { try restore(entry) } else { try trashAgain(entry) }
        case .moved(let from, let to, let identity):
            if backward {
                try move(to, identity, to: from)
            } else {
                try move(from, identity, to: to)
            }
        case .retimed(let path, let identity, let before, let after):
            try retime(path, identity, from: backward ? after : before, to: backward ? before : after)
        case .created(let path, let identity, let item, let token, let directory):
            if backward {
                try takeAway(path, identity, item, token: token, into: directory)
            } else {
                try restore(TrashEntry(directory: directory, name: PathName.lastComponent(path), originalPath: path,
                                       identity: identity, token: token, isDirectory: item.isFolder))
            }
        case .remoded(let path, let identity, let before, let after):
            try remode(path, identity, from: backward ? after : before, to: backward ? before : after)
        }
    }

    private func restore(_ entry: TrashEntry) throws(FileUndoError) {
        do {
            try trash.restore(entry)
        } catch {
            if case .entryGone = error {
                throw .obsolete("\(entry.originalPath) cannot come back: it is no longer in the trash (emptied, or taken out)")
            }
            throw .refused(error.description)
        }
    }

    private func trashAgain(_ entry: TrashEntry) throws(FileUndoError) {
        do {
            _ = try trash.trashAgain(entry)
        } catch {
            throw .refused(error.description)
        }
    }

    /// Renames the item at `path`, which must be `identity`, to `target`,
    /// which must be free, in a folder that is there.
    private func move(_ path: String, _ identity: FileIdentity, to target: String) throws(FileUndoError) {
        guard case .success(let found) = SystemCall.identity(of: path), found == identity else {
            throw .refused("\(path) is not what was moved there (it was replaced, moved or removed since)")
        }
        let folder = PathName.parent(of: target)
        guard case .success(let info) = SystemCall.stat(folder), info.st_mode & S_IFMT == S_IFDIR else {
            throw .refused("\(target) cannot come back: its folder \(folder) is gone")
        }
        switch SystemCall.renameNoReplace(path, to: target) {
        case .success:
            return
        case .failure(let error) where error.rawValue == EEXIST || error.rawValue == ENOTEMPTY:
            throw .refused("\(target) exists now, so \(path) cannot go back there without replacing it")
        case .failure(let error):
            throw .refused("cannot move \(path) to \(target): \(error)")
        }
    }

    /// Sets the times of the item at `path`, which must be `identity` with
    /// the times `expected`, to `times`.
    private func retime(_ path: String, _ identity: FileIdentity, from expected: FileTimes,
                        to times: FileTimes) throws(FileUndoError) {
        guard case .success(let found) = SystemCall.identity(of: path), found == identity else {
            throw .refused("\(path) is not what was touched there (it was replaced, moved or removed since)")
        }
        // The modification time only: reading the file moves its access time.
        guard FileTimes.of(path)?.modification == expected.modification else {
            throw .refused("\(path) was changed since it was touched (its times differ), so its times stay")
        }
        if case .failure(let error) = times.set(on: path) {
            throw .refused("cannot set the times of \(path): \(error)")
        }
    }

    /// Sets the mode of the item at `path`, which must be `identity` with
    /// the mode `expected`, to `mode`.
    private func remode(_ path: String, _ identity: FileIdentity, from expected: UInt32,
                        to mode: UInt32) throws(FileUndoError) {
        guard case .success(let found) = SystemCall.identity(of: path), found == identity,
              case .success(let info) = SystemCall.lstat(path) else {
            throw .refused("\(path) is not what chmod changed (it was replaced, moved or removed since)")
        }
        let now = UInt32(info.st_mode & 0o7777)
        guard now == expected else {
            throw .refused("\(path) has mode \(ModeText.octal(now)) now, not the \(ModeText.octal(expected)) it was "
                           + "left with, so its mode stays")
        }
        if case .failure(let error) = SystemCall.chmod(path, mode: mode_t(mode)) {
            throw .refused("cannot change the mode of \(path): \(error)")
        }
    }

    /// Moves what a command made at `path` to the trash, marked `token`,
    /// while it is still `item`: the same file, of the same size and time;
    /// an empty folder; a tree with every item as it was made.
    private func takeAway(_ path: String, _ identity: FileIdentity, _ item: MadeItem,
                          token: String, into directory: String) throws(FileUndoError) {
        guard case .success(let found) = SystemCall.identity(of: path), found == identity,
              case .success(let info) = SystemCall.lstat(path) else {
            throw .refused("\(path) is not what was made there (it was replaced, moved or removed since)")
        }
        switch item {
        case .file(let size, let modified):
            guard UInt64(info.st_size) == size, modified == FileTimes(info).modification else {
                throw .refused("\(path) was changed since it was made (its size or time differs), so it stays")
            }
        case .emptyFolder:
            if case .success(let names) = SystemCall.directoryNames(path), !names.isEmpty {
                throw .refused("\(path) is not empty now, so it stays")
            }
        case .tree(let digest):
            guard TreeDigest.of(path) == digest else {
                throw .refused("\(path) was changed since it was made (something in it was added, removed or "
                               + "written to), so it stays")
            }
        case .name:
            break
        }
        do {
            _ = try trash.trash(path, token: token, into: directory)
        } catch {
            throw .refused(error.description)
        }
    }
}
