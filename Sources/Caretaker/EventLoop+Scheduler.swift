import Loop
import SystemClock

/// The loop keeps the service's time in undod.
extension EventLoop: Scheduler {
    package var nanoseconds: Int64 { SystemTime.monotonicNanoseconds }

    package func schedule(afterMilliseconds milliseconds: Int, _ handler: @escaping () -> Void) -> ScheduledTimer {
        let token = schedule(afterMilliseconds: milliseconds, handler: handler)
        return ScheduledTimer { [unowned self] in self.remove(token) }
    }
}
