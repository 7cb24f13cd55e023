/// A source of the present time for the daemon to pass to the model as `now`.
package protocol UndoClock: Sendable {
    /// The present time in µs since the Unix epoch.
    var now: Int64 { get }
}
