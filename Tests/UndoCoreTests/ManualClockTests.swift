import Testing
import UndoCore

@Suite("The manual clock")
struct ManualClockTests {
    @Test("a manual clock moves only when told")
    func manual() {
        var clock = ManualClock(now: 5)
        #expect(clock.now == 5)
        clock.advance(milliseconds: 2)
        #expect(clock.now == 2005)
        clock.advance(milliseconds: -1)
        #expect(clock.now == 1005)
        #expect(ManualClock().now == 0)
    }
}
