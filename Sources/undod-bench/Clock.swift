#if canImport(Glibc)
import Glibc
#endif

/// The monotonic clock, in nanoseconds: every duration the bench reports.
enum Clock {
    /// Now, in nanoseconds since an arbitrary start.
    static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    /// Seconds elapsed since `start` (a value of `now()`).
    static func seconds(since start: Int64) -> Double {
        Double(now() - start) / 1e9
    }
}
