/// The process a stack serves where that is not its owner's own
/// (`Register`'s `process`: the shell a file agent works for), as the
/// daemon found it when the option was given. Its start time comes with
/// it, so that the pid, once the kernel hands it to another process, is
/// never taken for it.
package struct ServedProcess: Equatable, Sendable {
    /// The process's id.
    package var pid: UInt32
    /// When it started (clock ticks since boot, as `/proc/PID/stat` counts).
    package var startTime: UInt64

    /// The process `pid`, started at `startTime`.
    package init(pid: UInt32, startTime: UInt64) {
        self.pid = pid
        self.startTime = startTime
    }
}
