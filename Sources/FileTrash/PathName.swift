/// Absolute paths taken apart as text, the way the trash and the shell's
/// undo name files: nothing resolved, no file system asked.
public enum PathName {
    /// `path` without `.` components, repeated or trailing slashes.
    public static func normalized(_ path: String) -> String {
        let parts = path.split(separator: "/").filter { $0 != "." }
        return "/" + parts.joined(separator: "/")
    }

    /// The folder `path` is in (`/` for `/x`).
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// The last component of `path`.
    public static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
