import Loop
import SystemClock

/// The wall clock, as undod hands it to the service.
package struct SystemClock: UndoClock {
    /// The wall clock.
    package init() {}

    /// The present wall-clock time in µs since the Unix epoch.
    package var now: Int64 { SystemTime.wallMicroseconds }
}
