/// Timers as the service, the applier and the trigger handler use them:
/// the loop in undod, a hand-driven one in the service's tests.
package protocol Scheduler: AnyObject {
    /// The scheduler's clock in nanoseconds: it only moves on, and only
    /// differences between two readings mean anything.
    var nanoseconds: Int64 { get }
    /// Calls `handler` once, `milliseconds` from now, unless cancelled first.
    func schedule(afterMilliseconds milliseconds: Int, _ handler: @escaping () -> Void) -> ScheduledTimer
}

/// A timer that has not fired yet; `cancel` makes sure it never does.
package struct ScheduledTimer {
    /// Stops the timer (nothing if it fired already).
    package let cancel: () -> Void

    /// A timer that `cancel` stops.
    package init(cancel: @escaping () -> Void) {
        self.cancel = cancel
    }
}
