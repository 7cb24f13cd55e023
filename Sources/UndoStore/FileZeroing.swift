#if canImport(Glibc)
import Glibc
#endif
import SystemCalls

/// Overwriting what a file holds with zeros, synced, before it is cut off
/// or removed: a history deleted for good leaves no copy on the disk (the
/// journal's records, a stack's payload files).
enum FileZeroing {
    /// Overwrites bytes `start..<end` of the open file with zeros and syncs
    /// them (as far as the disk will); the failure when a write fails.
    static func overwrite(_ descriptor: Int32, from start: Int64, to end: Int64) -> Result<Void, Errno> {
        let zeros = [UInt8](repeating: 0, count: Int(min(max(end - start, 0), 1 << 20)))
        var offset = start
        while offset < end {
            let length = Int(min(Int64(zeros.count), end - offset))
            let written = zeros.withUnsafeBytes {
                SystemCall.pwrite(descriptor, UnsafeRawBufferPointer(rebasing: $0[..<length]), at: offset)
            }
            switch written {
            case .success(let count) where count > 0: offset += Int64(count)
            case .success: return .failure(.ioError)  // nothing written: the disk takes no more
            case .failure(let error): return .failure(error)
            }
        }
        _ = SystemCall.fdatasync(descriptor)
        return .success(())
    }
}
