public import FileTrash
public import SystemCalls

/// One change a shell command made to the files, recorded so that it is
/// undone and redone exactly, and only while the files are as it left
/// them (`StepReplay`). Nothing is ever unlinked: what an undo or redo
/// takes away goes to the trash.
public enum FileStep: Sendable, Equatable {
    /// An item went to the trash (`rm`, `rmdir`; what `mv` or `cp`
    /// replaced): undone by taking it out, redone by putting it back.
    case trashed(TrashEntry)
    /// An item was renamed (`mv` within a volume).
    case moved(from: String, to: String, identity: FileIdentity)
    /// An item was made (`mkdir`, `cp`, `touch`, `ln`): undone by moving
    /// it to the trash directory `trash` (its volume's, as the command
    /// found it) marked `token` — only while it is still `item` — and
    /// redone by taking it out.
    case created(path: String, identity: FileIdentity, item: MadeItem, token: String, trash: String)

    /// An item's access and modification times were set (`touch` of what
    /// exists), from `before` to `after` (ns since the epoch): undone and
    /// redone only while its times are the ones the command (or the last
    /// undo or redo) left.
    case retimed(path: String, identity: FileIdentity, before: FileTimes, after: FileTimes)

    /// An item's mode was set (`chmod`), from `before` to `after` (the
    /// permission bits with set-user-ID, set-group-ID and sticky): undone
    /// and redone only while its mode is the one the command (or the last
    /// undo or redo) left.
    case remoded(path: String, identity: FileIdentity, before: UInt32, after: UInt32)

    /// The paths the step changes: where an item leaves or arrives.
    var paths: [String] {
        switch self {
        case .trashed(let entry): [entry.originalPath]
        case .moved(let from, let to, _): [from, to]
        case .created(let path, _, _, _, _): [path]
        case .retimed, .remoded: []
        }
    }
}
