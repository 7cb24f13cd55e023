/// What a command made, as it must still be for an undo to take it away:
/// an undo never trashes what the user changed after the command.
public enum MadeItem: Sendable, Equatable {
    /// A file or symbolic link of `size` bytes last modified at `modified`
    /// (ns since the epoch).
    case file(size: UInt64, modified: Int64)
    /// A folder, which must still be empty (`mkdir`).
    case emptyFolder
    /// A folder with what is in it (`cp -r`, `mv` across volumes), every
    /// item still as the command left it (`TreeDigest`).
    case tree(digest: UInt64)
    /// Another name for a file that existed (`ln`): only the name goes, so
    /// only that it is still a name of that file is asked.
    case name

    /// Whether it is a folder (a trash entry of a folder).
    var isFolder: Bool {
        switch self {
        case .emptyFolder, .tree: true
        case .file, .name: false
        }
    }
}
