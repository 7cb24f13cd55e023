/// A time that only moves when told to, for exact tests: the model is
/// handed `now`, never reads a clock.
struct ManualClock: Hashable {
    /// The time it shows, in µs since the Unix epoch.
    var now: Int64

    /// A clock showing `now`.
    init(now: Int64 = 0) {
        self.now = now
    }

    /// Moves the clock forward (or back, for a negative value) by this many milliseconds.
    mutating func advance(milliseconds: Int64) {
        now += milliseconds * 1000
    }
}
