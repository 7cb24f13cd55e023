import CHarness
public import DBus
public import Foundation
import Locking
public import Loop

/// Runs a child `Process` and knows when it has ended, through a pidfd of
/// its own, and wakes an `EventLoop` then, so that a test waiting for the
/// end on its loop stops waiting at once.
///
/// Why not `Process.isRunning` and `waitUntilExit`: Foundation on Linux
/// learns of a child's end from a socket pair the child holds one end of,
/// made without close-on-exec; a child another test starts in the same
/// instant can inherit that end too, and then the first child's end goes
/// unnoticed (`isRunning` stays true, `waitUntilExit` blocks) until the
/// other child ends as well. Tests run in parallel and start hundreds of
/// children: an undod that stopped at once was now and then reported as
/// never stopping. Foundation also starts the termination handler before it
/// clears `isRunning`, so a loop woken by that handler could still read
/// true. A pidfd is readable once the process has ended, whoever holds
/// what; the status is read without reaping (`WNOWAIT`), so Foundation still
/// reaps the child when it notices.
public final class ExitWatch {
    /// The child.
    public let process: Process
    /// The loop's handle for Foundation's termination handler, let go of
    /// when this watch goes: Foundation keeps the handler (and so the
    /// handle's wake pipe) until it notices the child's end, which can be
    /// long after (see above).
    private let waker = Waker()
    private let descriptor: Descriptor
    private var pidfd: Int32 { descriptor.fd }

    /// Runs `process` and watches for its end; with `loop`, wakes it then.
    public init(running process: Process, waking loop: EventLoop?) throws {
        self.process = process
        // Kept for a child reaped before its pidfd could be opened (then
        // only Foundation knows, and this wakes the loop when it does).
        if let loop {
            let wake = waker
            wake.handle.withLock { $0 = loop.handle }
            process.terminationHandler = { _ in wake.handle.withLock { $0 }?.perform {} }
        }
        try process.run()
        // Opened after the start: a child that ended meanwhile is a zombie
        // (reaped only once Foundation notices), which a pidfd still finds.
        descriptor = Descriptor(charness_pidfd_open(process.processIdentifier))
        guard let loop, descriptor.fd >= 0 else { return }
        // The watch removes itself when it fires (a pidfd stays readable:
        // one wake is all that is wanted) and keeps the descriptor open
        // until then, so the watch may be dropped on any thread: the loop
        // is never touched but from its own.
        let watching = WatchToken()
        watching.token = loop.watch(fd: descriptor.fd, events: .readable) { [weak loop, descriptor] in
            _ = descriptor
            guard let loop, let token = watching.token else { return }
            watching.token = nil
            loop.remove(token)
        }
    }

    /// A descriptor closed when the last of its holders lets it go.
    private final class Descriptor {
        let fd: Int32
        init(_ fd: Int32) { self.fd = fd }
        deinit { if fd >= 0 { close(fd) } }
    }

    deinit { waker.handle.withLock { $0 = nil } }

    /// Holds a loop's handle until the watch lets it go.
    private final class Waker: Sendable {
        let handle = Lock<EventLoop.Handle?>(nil)
    }

    /// The loop's token for the watch, known to the watch itself.
    private final class WatchToken {
        var token: EventLoop.Token?
    }

    /// Whether the child has ended.
    public var hasExited: Bool {
        guard pidfd >= 0 else { return !process.isRunning }
        var entry = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    /// How the child ended (its exit code, or the signal that ended it);
    /// nil while it runs.
    public var termination: (status: Int32, bySignal: Bool)? {
        guard hasExited else { return nil }
        var status: Int32 = 0
        var signaled: Int32 = 0
        if charness_child_ended(process.processIdentifier, &status, &signaled) == 1 {
            return (status, signaled != 0)
        }
        // Reaped already: Foundation noticed, and has (or is setting) the status.
        process.waitUntilExit()
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal)
    }

    /// Waits, without serving any loop, at most `milliseconds` for the child
    /// to end; whether it did. For tearing down, once it has been killed.
    @discardableResult
    public func waitBlocking(milliseconds: Int) -> Bool {
        guard pidfd >= 0 else {
            process.waitUntilExit()
            return true
        }
        var entry = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, Int32(milliseconds)) > 0
    }

    /// Kills the child (SIGKILL) if it still runs, and waits for its end
    /// (at most 10 s).
    public func kill() {
        guard !hasExited else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        waitBlocking(milliseconds: 10_000)
    }
}
