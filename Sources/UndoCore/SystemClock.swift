#if canImport(Glibc)
private import Glibc

/// The wall clock (`CLOCK_REALTIME`), for the daemon.
public struct SystemClock: UndoClock {
    /// The wall clock.
    public init() {}

    /// The present wall-clock time in µs since the Unix epoch.
    public var now: Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000
    }
}
#endif
