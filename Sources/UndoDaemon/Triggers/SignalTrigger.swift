#if canImport(Glibc)
import Glibc
#endif
import DBus
package import Loop
package import UndoCore

/// `SIGUSR1` undoes and `SIGUSR2` redoes on the focused stack.
package final class SignalTrigger {
    /// A trigger on SIGUSR1 and SIGUSR2.
    package init() {}

    /// Routes the two signals to `fire`.
    package func start(on loop: EventLoop, fire: @escaping (Direction, String) -> Void) {
        loop.onSignal(SIGUSR1) { fire(.undo, "SIGUSR1") }
        loop.onSignal(SIGUSR2) { fire(.redo, "SIGUSR2") }
    }
}
