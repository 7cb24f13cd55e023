import Testing
import UndoCore

@Suite("Clocks")
struct ClockTests {
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

    #if canImport(Glibc)
    @Test("the system clock reads the wall time in microseconds")
    func system() {
        let clock: any UndoClock = SystemClock()
        let first = clock.now
        let second = clock.now
        #expect(first > 1_600_000_000_000_000)  // after September 2020
        #expect(first < 4_000_000_000_000_000)  // before 2096
        #expect(second >= first)
    }
    #endif
}
