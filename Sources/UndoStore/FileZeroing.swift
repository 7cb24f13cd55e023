#if canImport(Glibc)
import Glibc
#endif

/// Overwriting what a file holds with zeros, synced, before it is cut off
/// or removed: a history deleted for good leaves no copy on the disk (the
/// journal's records, a stack's payload files).
enum FileZeroing {
    /// Overwrites bytes `start..<end` of the open file with zeros and syncs
    /// them (as far as the disk will); false when a write fails.
    static func overwrite(_ descriptor: Int32, from start: Int64, to end: Int64) -> Bool {
        let zeros = [UInt8](repeating: 0, count: Int(min(max(end - start, 0), 1 << 20)))
        var offset = start
        while offset < end {
            let length = Int(min(Int64(zeros.count), end - offset))
            let count = zeros.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, length, off_t(offset)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += Int64(count)
        }
        _ = fdatasync(descriptor)
        return true
    }
}
