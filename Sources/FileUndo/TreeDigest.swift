#if canImport(Glibc)
import Glibc
#endif
import SystemCalls

/// A 64-bit digest of a folder and everything in it (FNV-1a): each item's
/// path within it, kind and mode, inode, size and modification time
/// (links not followed; folders' own times left out, as renaming the top
/// moves none of them). Any item added, removed, renamed, replaced or
/// written to changes it, so an undo of a copy takes the copy away only
/// while nobody changed it. Not a defence against someone forging a tree:
/// a check that the user did not work in it since.
enum TreeDigest {
    /// The digest of the folder at `path`; nil where it cannot be read
    /// whole (then nothing may be taken away).
    static func of(_ path: String) -> UInt64? {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ bytes: some Sequence<UInt8>) {
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        func mix(_ number: UInt64) {
            withUnsafeBytes(of: number.littleEndian) { mix($0) }
        }
        var pending = [""]
        while let relative = pending.popLast() {
            let full = relative.isEmpty ? path : path + "/" + relative
            guard case .success(let info) = SystemCall.lstat(full) else { return nil }
            mix(relative.utf8)
            mix(0)
            mix(UInt64(info.st_mode))
            mix(UInt64(info.st_ino))
            guard info.st_mode & S_IFMT == S_IFDIR else {
                mix(UInt64(info.st_size))
                mix(UInt64(bitPattern: FileTimes(info).modification))
                continue
            }
            guard case .success(let names) = SystemCall.directoryNames(full) else { return nil }
            // Reversed, so that popping takes them in name order.
            for name in names.sorted(by: >) {
                pending.append(relative.isEmpty ? name : relative + "/" + name)
            }
        }
        return hash
    }
}
