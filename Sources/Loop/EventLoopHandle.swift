#if canImport(Glibc)
import Glibc
#endif
internal import CShim
import Locking

extension EventLoop {
    /// What other threads may do with a loop: hand it work. The loop itself
    /// is confined to its thread; its handle is `Sendable`.
    public struct Handle: Sendable {
        let mailbox: Mailbox

        /// Runs `task` on the loop's thread at its next turn, in order with
        /// the other tasks handed over. Safe from any thread.
        public func perform(_ task: @escaping @Sendable () -> Void) {
            mailbox.post(task)
        }
    }

    /// Where other threads leave work for the loop, and the pipe that wakes
    /// it from `poll`. It lives as long as the loop or any of its handles.
    final class Mailbox: Sendable {
        private let tasks = Lock<[@Sendable () -> Void]>([])
        /// The end `poll` watches.
        let wakeRead: Int32
        private let wakeWrite: Int32

        init() {
            var fds: [Int32] = [-1, -1]
            let made = cshim_nonblocking_pipe(&fds)
            precondition(made == 0, "undod cannot create a pipe (errno \(errno)); the system is out of file descriptors.")
            wakeRead = fds[0]
            wakeWrite = fds[1]
        }

        deinit {
            close(wakeRead)
            close(wakeWrite)
        }

        func post(_ task: @escaping @Sendable () -> Void) {
            tasks.withLock { $0.append(task) }
            wake()
        }

        /// Takes the tasks left so far.
        func take() -> [@Sendable () -> Void] {
            tasks.withLock { tasks in
                defer { tasks = [] }
                return tasks
            }
        }

        /// Empties the wake pipe (after `poll` saw it readable).
        func drainWake() {
            var buffer = [UInt8](repeating: 0, count: 64)
            while read(wakeRead, &buffer, buffer.count) > 0 {}
        }

        private func wake() {
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
        }
    }
}
