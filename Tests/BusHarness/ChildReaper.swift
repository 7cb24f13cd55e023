public import Foundation
import Locking

/// Kills, when the test process exits, every child the harness started and
/// did not stop: a test that fails half-way (or a fixture kept alive by a
/// reference cycle) must not leave a bus or an undod running after the run.
public enum ChildReaper {
    private static let children = Lock<Set<pid_t>>([])
    private static let installed = Lock(false)

    /// Remembers `pid` until `forget`.
    public static func watch(_ pid: pid_t) {
        let first = installed.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        if first { atexit { ChildReaper.killAll() } }
        _ = children.withLock { $0.insert(pid) }
    }

    /// Forgets `pid` (it was stopped).
    public static func forget(_ pid: pid_t) {
        _ = children.withLock { $0.remove(pid) }
    }

    private static func killAll() {
        for pid in children.withLock({ $0 }) { kill(pid, SIGKILL) }
    }
}
