public import Foundation

/// A folder's items taken whole, to compare the files before and after a
/// command, its undo and its redo: each item's path within it, kind and
/// mode, size, modification time (ns), inode, and its bytes or where it
/// links.
public enum FileTreeSnapshot {
    /// Every item under `top` (not `top` itself). Without `inodes`, to
    /// compare across volumes: no inodes, and no folders' sizes (each
    /// file system has its own).
    public static func of(_ top: String, inodes: Bool = true) -> [String: String] {
        var items: [String: String] = [:]
        var pending = [""]
        while let next = pending.popLast() {
            let path = next.isEmpty ? top : top + "/" + next
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            let size = inodes || info.st_mode & S_IFMT != S_IFDIR ? "\(info.st_size)" : "-"
            var text = "mode \(String(info.st_mode, radix: 8)) size \(size) "
                + "mtime \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)" + (inodes ? " inode \(info.st_ino)" : "")
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                    pending.append(next.isEmpty ? name : next + "/" + name)
                }
            case S_IFLNK:
                text += " -> " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?")
            default:
                text += " " + (FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? "?")
            }
            if !next.isEmpty { items[next] = text }
        }
        return items
    }
}
