import BusHarness
import DBus
import Foundation
import Loop
import Testing

/// A test that waits on its loop for a child to end must see the end as
/// soon as it happens (`ExitWatch`), and its status, even when another
/// child holds what Foundation would have learnt it from.
@Suite struct ExitWatchTests {
    static func child(_ script: String) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        return process
    }

    @Test func everyEndEndsItsWaitWithItsStatus() throws {
        let loop = EventLoop()
        for index in 0..<100 {
            let watch = try ExitWatch(running: Self.child("exit \(index % 7)"), waking: loop)
            // Nothing else wakes this loop: only the watch can end the wait.
            #expect(loop.run(until: { watch.hasExited }, timeoutMilliseconds: TestTime.milliseconds(5_000)))
            #expect(watch.termination?.status == Int32(index % 7) && watch.termination?.bySignal == false)
        }
        let killed = try ExitWatch(running: Self.child("exec sleep 60"), waking: loop)
        #expect(!killed.hasExited && killed.termination == nil)
        killed.kill()
        #expect(killed.termination?.status == SIGKILL && killed.termination?.bySignal == true)
    }

    /// A grandchild that keeps every descriptor it inherited outlives the
    /// child, as a child started by another test at the wrong instant can
    /// hold Foundation's end of the socket it watches a child with.
    @Test func anEndIsSeenWhileAnotherProcessHoldsTheChildsDescriptors() throws {
        let loop = EventLoop()
        // The shell leaves a sleeper holding all it holds, then exits.
        let watch = try ExitWatch(running: Self.child("sleep 10 & exit 3"), waking: loop)
        #expect(loop.run(until: { watch.hasExited }, timeoutMilliseconds: TestTime.milliseconds(5_000)))
        #expect(watch.termination?.status == 3)
    }
}
