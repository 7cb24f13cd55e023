public import DBus
public import Foundation
import Locking

/// Knows when a child `Process` has exited, and wakes an `EventLoop` then,
/// so that a test waiting for the exit on its loop ends at once.
///
/// Why not `Process.isRunning` alone: Foundation on Linux starts the
/// termination handler's thread *before* it clears `isRunning`. A loop woken
/// by that handler could still read `isRunning` as true, go back to `poll`
/// with nothing left to wake it, and report a process that had exited as
/// still running when its bound ran out (an undod that stopped at once
/// counted as one that never stopped, about once in ten full runs). Here the
/// handler marks the exit before it wakes the loop.
public final class ExitWatch: Sendable {
    private let exited = Lock(false)

    /// Installs the termination handler on `process` (before it runs); it
    /// marks the exit, then wakes `loop`.
    public init(_ process: Process, waking loop: EventLoop) {
        let wake = loop.handle
        process.terminationHandler = { [exited] _ in
            exited.withLock { $0 = true }
            wake.perform {}
        }
    }

    /// Whether the process has exited (its status may still be being
    /// collected: `Process.waitUntilExit` then returns at once).
    public var hasExited: Bool { exited.withLock { $0 } }
}
