#if canImport(Glibc)
import Glibc
#endif
internal import Synchronization
import SystemCalls

/// A trash directory's `directorysizes`: a cache, one line per trashed
/// directory, `SIZE MTIME NAME` — the disk space the directory uses in
/// bytes (as `du -B1` counts it), the modification time of its
/// `.trashinfo` (seconds since the epoch) and its name in the trash,
/// escaped. Replaced whole at each change (written beside it, renamed
/// over), as the specification asks, one change at a time in this process
/// (a size measured on one thread while another takes an item out).
struct DirectorySizes {
    /// Held while the file is read and replaced.
    private static let changing = Mutex(())

    /// The trash directory it belongs to.
    let trash: TrashDirectory

    var path: String { trash.path + "/directorysizes" }

    /// Records `name`'s `bytes`, with its info file's modification time,
    /// if `stillThere` (asked while no other change runs) says so.
    func record(_ name: String, bytes: UInt64, infoModified: Int, if stillThere: () -> Bool = { true }) throws(TrashError) {
        try rewrite { lines in
            guard stillThere() else { return lines }
            return
            lines.filter { Self.name(of: $0) != name } + ["\(bytes) \(infoModified) \(PercentEncoding.escape(name))"]
        }
    }

    /// Forgets `name`.
    func remove(_ name: String) throws(TrashError) {
        try rewrite { lines in lines.filter { Self.name(of: $0) != name } }
    }

    /// The size recorded for `name`, if any.
    func size(of name: String) -> UInt64? {
        lines().first { Self.name(of: $0) == name }.flatMap { UInt64($0.split(separator: " ").first ?? "") }
    }

    private func lines() -> [String] {
        guard case .success(let bytes) = SystemCall.readFile(path) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    private func rewrite(_ change: ([String]) -> [String]) throws(TrashError) {
        let failure: TrashError? = Self.changing.withLock { _ in
            let old = lines()
            let new = change(old)
            guard new != old else { return nil }
            let text = new.isEmpty ? "" : new.joined(separator: "\n") + "\n"
            if case .failure(let error) = SmallFile.replace(path, with: Array(text.utf8)) {
                return .failed(operation: "update", path: path, reason: error.description)
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// The escaped name a line ends with, unescaped.
    private static func name(of line: String) -> String? {
        let fields = line.split(separator: " ", maxSplits: 2)
        return fields.count == 3 ? PercentEncoding.unescape(String(fields[2])) : nil
    }

    /// The disk space `path` and everything under it uses, in bytes, as
    /// `du -B1 -s` counts it: each inode's blocks once, links not followed.
    static func diskUsage(of path: String) -> UInt64 {
        var seen: Set<[UInt64]> = []
        var total: UInt64 = 0
        var pending = [path]
        while let next = pending.popLast() {
            guard case .success(let info) = SystemCall.lstat(next) else { continue }
            if info.st_nlink > 1, info.st_mode & S_IFMT != S_IFDIR {
                guard seen.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { continue }
            }
            total += UInt64(info.st_blocks) * 512
            guard info.st_mode & S_IFMT == S_IFDIR, case .success(let names) = SystemCall.directoryNames(next) else {
                continue
            }
            pending += names.map { next + "/" + $0 }
        }
        return total
    }
}
