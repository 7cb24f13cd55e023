/// Which file a path names, for good: its device and inode, and its
/// birth time where the file system keeps one (ext4, btrfs, XFS, tmpfs do),
/// since a file system hands the inode of a file just deleted to the next
/// one made — ext4 does, at once. Renames keep all three; so do writes.
public struct FileIdentity: Sendable, Hashable {
    /// The device (`st_dev`).
    public var device: UInt64
    /// The inode.
    public var inode: UInt64
    /// The birth time in ns since the epoch; 0 where none is kept (the
    /// device and inode then stand alone).
    public var birth: Int64

    /// An identity with these fields.
    public init(device: UInt64, inode: UInt64, birth: Int64) {
        self.device = device
        self.inode = inode
        self.birth = birth
    }
}
