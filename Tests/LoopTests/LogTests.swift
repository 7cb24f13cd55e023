import Locking
import Loop
import Logging
import Testing

/// The log: a line that repeats one of the last two is counted, not written.
@Suite struct LogTests {
    /// Lines as the log writes them.
    final class Lines: Sendable {
        let lines = Lock<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    static func log(verbose: Bool = false) -> (Log, Lines) {
        let lines = Lines()
        let log = Log(verbose: verbose, journal: false) { line in lines.lines.withLock { $0.append(line) } }
        return (log, lines)
    }

    @Test func aRepeatedLineIsWrittenOnceAndCountedBeforeTheNextOne() {
        let (log, lines) = Self.log()
        for _ in 0..<1_148 { log.notice("SIGUSR1: busy") }
        #expect(lines.all == ["undod: SIGUSR1: busy\n"])
        log.notice("stopped.")
        #expect(lines.all == ["undod: SIGUSR1: busy\n", "undod: … repeated 1,147 times\n", "undod: stopped.\n"])
    }

    @Test func twoAlternatingLinesAreWrittenOnceEachAndCountedTogether() {
        let (log, lines) = Self.log()
        for _ in 0..<500 {
            log.notice("the key Ctrl+Alt+z: No stack has the focus")
            log.notice("asking the notification server to show “Nothing undone”.")
        }
        #expect(lines.all == ["undod: the key Ctrl+Alt+z: No stack has the focus\n",
                              "undod: asking the notification server to show “Nothing undone”.\n"])
        log.notice("stopped.")
        #expect(lines.all.suffix(2) == ["undod: … the last 2 lines repeated 998 times\n", "undod: stopped.\n"])
    }

    @Test func theSameTextAtAnotherLevelIsAnotherLine() {
        let (log, lines) = Self.log(verbose: true)
        log.notice("x")
        log.debug("x")
        log.debug("x")
        log.notice("y")
        #expect(lines.all == ["undod: x\n", "undod: x\n", "undod: … repeated 1 time\n", "undod: y\n"])
    }

    @Test func linesBelowTheThresholdAreNeitherWrittenNorCounted() {
        let (log, lines) = Self.log()
        log.notice("x")
        log.debug("x")
        log.notice("y")
        #expect(lines.all == ["undod: x\n", "undod: y\n"])
    }
}
