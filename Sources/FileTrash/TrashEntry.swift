/// One item put in a trash: which trash, under which name, from where, and
/// which file it is (its device, inode and change time once in the trash,
/// so that another item trashed later under a reused name — even one the
/// file system gave the same inode — is never taken for it).
public struct TrashEntry: Sendable, Equatable, Hashable {
    /// The trash directory (`~/.local/share/Trash`, `/media/x/.Trash-1000`).
    public var directory: String
    /// Its name in the trash: `files/NAME` and `info/NAME.trashinfo`.
    public var name: String
    /// Where it was: an absolute path.
    public var originalPath: String
    /// The device and inode of the item itself, as it was trashed.
    public var device: UInt64
    /// See `device`.
    public var inode: UInt64
    /// The item's status change time once it was in the trash (ns since
    /// the epoch): taken out and put back, it is another.
    public var changed: Int64
    /// Whether it is a directory (one that `directorysizes` lists).
    public var isDirectory: Bool

    /// An entry with these fields.
    public init(directory: String, name: String, originalPath: String, device: UInt64, inode: UInt64,
                changed: Int64, isDirectory: Bool) {
        self.directory = directory
        self.name = name
        self.originalPath = originalPath
        self.device = device
        self.inode = inode
        self.changed = changed
        self.isDirectory = isDirectory
    }

    /// Where the item is in the trash.
    public var trashedPath: String { directory + "/files/" + name }
    /// Its `.trashinfo` file.
    public var infoPath: String { directory + "/info/" + name + ".trashinfo" }
}
