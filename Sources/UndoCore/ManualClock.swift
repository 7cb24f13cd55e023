/// A clock that only moves when told to, for exact tests.
public struct ManualClock: UndoClock, Hashable {
    /// The time it shows, in µs since the Unix epoch.
    public var now: Int64

    /// A clock showing `now`.
    public init(now: Int64 = 0) {
        self.now = now
    }

    /// Moves the clock forward (or back, for a negative value) by this many milliseconds.
    public mutating func advance(milliseconds: Int64) {
        now += milliseconds * 1000
    }
}
