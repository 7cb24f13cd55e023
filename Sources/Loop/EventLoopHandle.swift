#if canImport(Glibc)
import Glibc
#endif
internal import CShim
import Locking

extension EventLoop {
    /// What other threads may do with a loop: hand it work and stop it.
    /// The loop itself is confined to its thread; its handle is `Sendable`.
    public struct Handle: Sendable {
        let mailbox: Mailbox

        /// Runs `task` on the loop's thread at its next turn, in order with
        /// the other tasks handed over. Safe from any thread.
        public func perform(_ task: @escaping @Sendable () -> Void) {
            mailbox.post(task)
        }

        /// Makes the loop's `run` return after its current turn. Safe from any thread.
        public func stop() {
            mailbox.requestStop()
        }
    }

    /// Where other threads leave work for the loop, and the pipe that wakes
    /// it from `poll`. It lives as long as the loop or any of its handles.
    final class Mailbox: Sendable {
        private struct Contents {
            var tasks: [@Sendable () -> Void] = []
            var stopRequested = false
        }

        private let contents = Lock(Contents())
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
            contents.withLock { $0.tasks.append(task) }
            wake()
        }

        func requestStop() {
            contents.withLock { $0.stopRequested = true }
            wake()
        }

        /// Takes what was left: the tasks, and whether a stop was asked for.
        func take() -> (tasks: [@Sendable () -> Void], stop: Bool) {
            contents.withLock { contents in
                defer { contents = Contents() }
                return (contents.tasks, contents.stopRequested)
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
