import BusHarness
import DBus
import Foundation
import Testing

/// A test that waits on its loop for a child to exit must see the exit as
/// soon as the loop is woken for it (`ExitWatch`): Foundation wakes the
/// loop before `Process.isRunning` turns false, and a wait that asked
/// `isRunning` could sleep on to its bound.
@Suite struct ExitWatchTests {
    @Test func everyExitEndsItsWaitWithoutABoundRunningOut() throws {
        let loop = EventLoop()
        var missed = 0
        for _ in 0..<200 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/true")
            let exitWatch = ExitWatch(process, waking: loop)
            try process.run()
            // Nothing else wakes this loop: only the watch can end the wait.
            if !loop.run(until: { exitWatch.hasExited }, timeoutMilliseconds: TestTime.milliseconds(2_000)) {
                missed += 1
            }
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        #expect(missed == 0, "\(missed) of 200 exits were not seen before the bound")
    }
}
