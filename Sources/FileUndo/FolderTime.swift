public import SystemCalls

/// A folder whose modification time a command changed (an item went out
/// of it or into it): its time before the command and after, so that an
/// undo sets it back — and a redo forward — when nobody else changed it
/// meanwhile. A folder the command itself made (`mkdir -p a/b`) has its
/// time as the command left it for both: it comes and goes with its
/// step, and a redo that brings it back gives it that time again.
public struct FolderTime: Sendable, Equatable {
    /// The folder.
    public var path: String
    /// Which folder it is.
    public var identity: FileIdentity
    /// Its modification time before the command (ns since the epoch).
    public var before: Int64
    /// Its modification time once the command was done.
    public var after: Int64

    /// A folder time with these fields.
    public init(path: String, identity: FileIdentity, before: Int64, after: Int64) {
        self.path = path
        self.identity = identity
        self.before = before
        self.after = after
    }

    /// The modification time of `path` now (ns since the epoch), a link
    /// not followed.
    static func modified(_ path: String) -> Int64? {
        FileTimes.of(path)?.modification
    }
}
