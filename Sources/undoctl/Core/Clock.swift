#if canImport(Glibc)
import Glibc
#endif

/// The wall clock, for the times `watch` stamps on events.
enum Clock {
    /// Now, in µs since the Unix epoch.
    static var nowMicroseconds: Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000
    }
}
