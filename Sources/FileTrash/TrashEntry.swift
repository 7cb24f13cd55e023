public import SystemCalls

/// One item put in a trash: which trash, under which name, from where, and
/// which item it is — its identity (device, inode, birth), and a token written into its
/// `.trashinfo` (`X-Undod-Token`, a key other trash readers ignore) — so
/// that another item trashed later under a reused name, even one the file
/// system gave the same inode, is never taken for it, and the item, taken
/// out and put back by a redo under another name, is found again.
public struct TrashEntry: Sendable, Equatable, Hashable {
    /// The trash directory (`~/.local/share/Trash`, `/media/x/.Trash-1000`).
    public var directory: String
    /// Its name in the trash: `files/NAME` and `info/NAME.trashinfo`.
    public var name: String
    /// Where it was: an absolute path.
    public var originalPath: String
    /// Which file the item is (renames keep it).
    public var identity: FileIdentity
    /// The token in its `.trashinfo`: what makes it this entry.
    public var token: String
    /// Whether it is a directory (one that `directorysizes` lists).
    public var isDirectory: Bool

    /// An entry with these fields.
    public init(directory: String, name: String, originalPath: String, identity: FileIdentity,
                token: String, isDirectory: Bool) {
        self.directory = directory
        self.name = name
        self.originalPath = originalPath
        self.identity = identity
        self.token = token
        self.isDirectory = isDirectory
    }

    /// Where the item is in the trash.
    public var trashedPath: String { directory + "/files/" + name }
    /// Its `.trashinfo` file.
    public var infoPath: String { directory + "/info/" + name + ".trashinfo" }
}
