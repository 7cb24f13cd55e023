import Foundation

/// How long tests wait for what they expect: bounds, never sleeps. Builds
/// that run slower by design (the sanitizers) stretch every bound by
/// `UNDOD_TEST_TIME_SCALE` (a whole number, 1 by default).
public enum TestTime {
    /// The factor every bound is multiplied by.
    public static let scale: Int = {
        let value = ProcessInfo.processInfo.environment["UNDOD_TEST_TIME_SCALE"].flatMap(Int.init) ?? 1
        return max(1, value)
    }()

    /// `milliseconds`, stretched by `scale`.
    public static func milliseconds(_ milliseconds: Int) -> Int {
        milliseconds * scale
    }
}
