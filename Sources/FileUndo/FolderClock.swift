import SystemCalls

/// Notes the modification time of each folder a command is about to
/// change, the first time only, and gives the folders whose time the
/// command changed once it is done (`FolderTime`); a folder the command
/// made is not one.
final class FolderClock {
    private var noted: [(path: String, identity: FileIdentity, before: Int64)] = []
    private var made: Set<String> = []

    /// Before a change to the item at `path`: its folder's time, if that
    /// folder exists, was not made by the command, and is not noted yet.
    func willChange(_ path: String) {
        let folder = StepReplay.parent(of: path)
        guard !made.contains(folder), !noted.contains(where: { $0.path == folder }),
              let before = FolderTime.modified(folder),
              case .success(let identity) = SystemCall.identity(of: folder) else { return }
        noted.append((folder, identity, before))
    }

    /// The command made the folder at `path`.
    func didMake(_ path: String) {
        made.insert(path)
    }

    /// The folders noted whose time changed, with their time now.
    func times() -> [FolderTime] {
        noted.compactMap { folder in
            guard let after = FolderTime.modified(folder.path), after != folder.before,
                  case .success(let identity) = SystemCall.identity(of: folder.path), identity == folder.identity
            else { return nil }
            return FolderTime(path: folder.path, identity: folder.identity, before: folder.before, after: after)
        }
    }
}
