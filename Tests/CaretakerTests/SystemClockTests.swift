import Caretaker
import Testing

@Suite("The system clock")
struct SystemClockTests {
    @Test("the system clock reads the wall time in microseconds")
    func system() {
        let clock: any UndoClock = SystemClock()
        let first = clock.now
        let second = clock.now
        #expect(first > 1_600_000_000_000_000)  // after September 2020
        #expect(first < 4_000_000_000_000_000)  // before 2096
        #expect(second >= first)
    }
}
