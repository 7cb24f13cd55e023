import FileTrash
import SystemCalls

/// Notes the modification time of each folder a command is about to
/// change, the first time only, and gives the folders whose time the
/// command changed once it is done (`FolderTime`), and those it made with
/// the time it left them.
final class FolderClock {
    private var noted: [(path: String, identity: FileIdentity, before: Int64)] = []
    private var made: Set<String> = []
    /// The time a noted folder had as the command removed it (its time in
    /// the trash, and when it comes back).
    private var removed: [String: Int64] = [:]

    /// Before a change to the item at `path`: its folder's time, if that
    /// folder exists, was not made by the command, and is not noted yet.
    func willChange(_ path: String) {
        let folder = PathName.parent(of: path)
        guard !made.contains(folder), !noted.contains(where: { $0.path == folder }),
              let before = FolderTime.modified(folder),
              case .success(let identity) = SystemCall.identity(of: folder) else { return }
        noted.append((folder, identity, before))
    }

    /// The command is about to remove the item at `path` (to the trash):
    /// a noted folder's time is taken now, as it will keep it.
    func willRemove(_ path: String) {
        if noted.contains(where: { $0.path == path }), let now = FolderTime.modified(path) { removed[path] = now }
    }

    /// The command made the folder at `path`.
    func didMake(_ path: String) {
        made.insert(path)
    }

    /// The folders noted whose time changed, with their time now (or as
    /// they were removed), then the folders made that are still there,
    /// with their time now.
    func times() -> [FolderTime] {
        let madeTimes = made.sorted().compactMap { path -> FolderTime? in
            guard let now = FolderTime.modified(path), case .success(let identity) = SystemCall.identity(of: path)
            else { return nil }
            return FolderTime(path: path, identity: identity, before: now, after: now)
        }
        return noted.compactMap { folder -> FolderTime? in
            if let after = removed[folder.path] {
                return after == folder.before ? nil
                    : FolderTime(path: folder.path, identity: folder.identity, before: folder.before, after: after)
            }
            guard let after = FolderTime.modified(folder.path), after != folder.before,
                  case .success(let identity) = SystemCall.identity(of: folder.path), identity == folder.identity
            else { return nil }
            return FolderTime(path: folder.path, identity: folder.identity, before: folder.before, after: after)
        } + madeTimes
    }
}
