#if canImport(Glibc)
internal import Glibc
#endif

/// Keeps the memory of the last large message read, to read the next one
/// into it.
///
/// Why: memory of a message's size, fresh from the kernel, is cleared page
/// by page as it is first written; reading a 60 MiB call into fresh memory
/// was over half of undod's CPU for it (perf, `clear_page_erms` under
/// `read`). Memory read into before costs nothing more. While it waits for
/// the next message the buffer is offered back to the kernel
/// (`MADV_FREE`), which takes it only when memory is short. One buffer per
/// connection, at most the largest message D-Bus allows: within the
/// spec's bound of twice the largest message.
final class LargeBufferLender {
    /// The buffer waiting to be lent again.
    private var spare: UnsafeMutableRawBufferPointer?

    deinit {
        spare?.deallocate()
    }

    /// A buffer of at least `count` bytes: the spare if it is large enough,
    /// else a new one (the spare, too small, is freed).
    func lend(_ count: Int) -> UnsafeMutableRawBufferPointer {
        if let spare, spare.count >= count {
            self.spare = nil
            return spare
        }
        spare?.deallocate()
        spare = nil
        return UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: Int(getpagesize()))
    }

    /// Takes `buffer` back as the spare (freeing a smaller spare, or
    /// `buffer` if the spare is larger).
    func giveBack(_ buffer: UnsafeMutableRawBufferPointer) {
        guard (spare?.count ?? 0) < buffer.count else {
            buffer.deallocate()
            return
        }
        spare?.deallocate()
        _ = madvise(buffer.baseAddress, buffer.count, MADV_FREE)
        spare = buffer
    }
}
