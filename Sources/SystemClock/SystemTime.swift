#if canImport(Glibc)
import Glibc
#endif

/// The one place a process of this package reads the time: the monotonic
/// clock for intervals and deadlines, the wall clock for what people and the
/// store see. The undo model never reads either; it is handed `now`.
public enum SystemTime {
    /// The monotonic clock (`CLOCK_MONOTONIC`) in nanoseconds: for measuring
    /// intervals and setting deadlines, never shown.
    public static var monotonicNanoseconds: Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    /// The wall clock (`CLOCK_REALTIME`) in µs since the Unix epoch: the time
    /// a group was made, a stack detached.
    public static var wallMicroseconds: Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000
    }

    /// Seconds elapsed since `start`, a reading of `monotonicNanoseconds`.
    public static func seconds(since start: Int64) -> Double {
        Double(monotonicNanoseconds - start) / 1e9
    }
}
