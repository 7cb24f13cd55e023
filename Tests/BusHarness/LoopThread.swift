public import DBus
import Foundation
import Locking
public import Loop

/// An `EventLoop` kept on a thread of its own, for async tests: their task
/// may resume on another thread after every `await`, and a loop belongs to
/// one thread. `sync` runs a body on that thread, with the loop, and waits.
public final class LoopThread: @unchecked Sendable {
    // @unchecked: `loop` is touched only on the thread, inside `sync`.
    private let loop = EventLoop()
    private let inbox = Inbox()

    /// One body to run, and the semaphore its caller waits on.
    private struct Job: @unchecked Sendable {
        var work: () -> Void
        let done: DispatchSemaphore
    }

    /// The bodies waiting for the thread; it outlives the `LoopThread` until it ends.
    private final class Inbox: Sendable {
        let jobs = Lock<[Job]>([])
        let waiting = DispatchSemaphore(value: 0)
    }

    /// Starts the thread; it waits for work.
    public init() {
        let thread = Thread { [inbox] in
            while true {
                inbox.waiting.wait()
                let done: DispatchSemaphore
                do {
                    guard let job = inbox.jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return }
                    done = job.done
                    job.work()
                }
                // The body is released before its caller goes on: it may not escape `sync`.
                done.signal()
            }
        }
        thread.name = "test loop"
        thread.start()
    }

    deinit {
        // An empty queue with a signal ends the thread.
        inbox.waiting.signal()
    }

    /// Runs `body` on the loop's thread and returns what it returned (or throws what it threw).
    public func sync<T, E: Error>(_ body: (EventLoop) throws(E) -> T) throws(E) -> T {
        nonisolated(unsafe) var outcome: Result<T, E>?
        nonisolated(unsafe) let loop = loop
        withoutActuallyEscaping(body) { body in
            let done = DispatchSemaphore(value: 0)
            inbox.jobs.withLock { $0.append(Job(work: { outcome = Result { () throws(E) -> T in try body(loop) } }, done: done)) }
            inbox.waiting.signal()
            done.wait()
        }
        return try outcome!.get()
    }
}
