/// Why a file could not be put in the trash or taken out of it, as a
/// sentence naming the path. Nothing changed when one is thrown.
public enum TrashError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing is at `path`.
    case missing(path: String)
    /// `path` is the top of its volume (a mount point), which cannot move.
    case volumeTop(path: String)
    /// `path` is a trash directory, or inside one.
    case inTrash(path: String)
    /// No trash directory on `path`'s volume (whose top is `volume`) can be
    /// used: none exists that is safe, and none could be made (`reason`).
    case noTrash(path: String, volume: String, reason: String)
    /// The system refused `operation` on `path` (`reason`: strerror's words).
    case failed(operation: String, path: String, reason: String)
    /// The trashed item is no longer in the trash (emptied, or restored by
    /// someone else): there is nothing to take out.
    case entryGone(name: String, originalPath: String)
    /// Something is at `path` already, where the item would go back.
    case destinationTaken(path: String)
    /// The folder the item would go back into, `folder`, is not there.
    case folderGone(path: String, folder: String)
    /// What is at `path` is not the item that was there (another file, or
    /// none): a redo finds the world changed.
    case changed(path: String)

    /// The sentence a person reads.
    public var description: String {
        switch self {
        case .missing(let path): "\(path) does not exist"
        case .volumeTop(let path): "\(path) is the top of its volume (a mount point), which cannot be moved to the trash"
        case .inTrash(let path): "\(path) is in a trash directory already"
        case .noTrash(let path, let volume, let reason):
            "\(path) cannot go to a trash: its volume (mounted at \(volume)) has no trash directory undod may use (\(reason))"
        case .failed(let operation, let path, let reason): "cannot \(operation) \(path): \(reason)"
        case .entryGone(let name, let original):
            "\(original) is no longer in the trash (its entry \(name) was emptied or restored)"
        case .destinationTaken(let path): "\(path) exists now, so what was there cannot come back without replacing it"
        case .folderGone(let path, let folder): "\(path) cannot come back: its folder \(folder) is gone"
        case .changed(let path): "\(path) is not what was there (it was replaced, moved or removed since)"
        }
    }
}
