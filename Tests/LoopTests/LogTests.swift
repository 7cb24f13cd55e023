import Locking
import Loop
import Logging
import Testing

/// The log: a line of note carries its key in brackets; a line that
/// repeats one of the last two is counted, not written.
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

    @Test func aLineOfNoteCarriesItsKeyInBracketsAfterThePrefix() {
        let (log, lines) = Self.log(verbose: true)
        log.warning(LogKey("x11.lost"), "lost the X server at :1.")
        log.debug(LogKey("notify.shown"), "notification 3 shown: “Undid Edit 2 in Notes”.")
        log.debug("sway bound Ctrl+Mod1+z.")
        #expect(lines.all == ["undod: [x11.lost] lost the X server at :1.\n",
                              "undod: [notify.shown] notification 3 shown: “Undid Edit 2 in Notes”.\n",
                              "undod: sway bound Ctrl+Mod1+z.\n"])
        let journal = Lines()
        let toJournal = Log(verbose: false, journal: true) { line in journal.lines.withLock { $0.append(line) } }
        toJournal.error(LogKey("store.save-failed"), "The history store could not save: full.")
        #expect(journal.all == ["<3>[store.save-failed] The history store could not save: full.\n"])
    }

    @Test func aRepeatedLineIsWrittenOnceAndCountedBeforeTheNextOne() {
        let (log, lines) = Self.log()
        for _ in 0..<1_148 { log.notice(Self.refused, "SIGUSR1: busy") }
        #expect(lines.all == ["undod: [trigger.refused] SIGUSR1: busy\n"])
        log.notice(Self.stopped, "stopped.")
        #expect(lines.all == ["undod: [trigger.refused] SIGUSR1: busy\n", "undod: [log.repeated] … repeated 1,147 times\n",
                              "undod: [daemon.stopped] stopped.\n"])
    }

    @Test func twoAlternatingLinesAreWrittenOnceEachAndCountedTogether() {
        let (log, lines) = Self.log()
        for _ in 0..<500 {
            log.notice(Self.refused, "the key Ctrl+Alt+z: No stack has the focus")
            log.notice(LogKey("notify.asking"), "asking the notification server to show “Nothing undone”.")
        }
        #expect(lines.all == ["undod: [trigger.refused] the key Ctrl+Alt+z: No stack has the focus\n",
                              "undod: [notify.asking] asking the notification server to show “Nothing undone”.\n"])
        log.notice(Self.stopped, "stopped.")
        #expect(lines.all.suffix(2) == ["undod: [log.repeated] … the last 2 lines repeated 998 times\n",
                                        "undod: [daemon.stopped] stopped.\n"])
    }

    @Test func theSameTextUnderAnotherKeyIsAnotherLine() {
        let (log, lines) = Self.log()
        log.notice(Self.refused, "x")
        log.notice(Self.stopped, "x")
        log.notice(Self.refused, "x")
        log.notice(Self.stopped, "y")
        #expect(lines.all == ["undod: [trigger.refused] x\n", "undod: [daemon.stopped] x\n",
                              "undod: [log.repeated] … the last 2 lines repeated 1 time\n", "undod: [daemon.stopped] y\n"])
    }

    @Test func theSameTextAtAnotherLevelIsAnotherLine() {
        let (log, lines) = Self.log(verbose: true)
        log.notice(Self.refused, "x")
        log.debug(Self.refused, "x")
        log.debug(Self.refused, "x")
        log.notice(Self.refused, "y")
        #expect(lines.all == ["undod: [trigger.refused] x\n", "undod: [trigger.refused] x\n",
                              "undod: [log.repeated] … repeated 1 time\n", "undod: [trigger.refused] y\n"])
    }

    @Test func linesBelowTheThresholdAreNeitherWrittenNorCounted() {
        let (log, lines) = Self.log()
        log.notice(Self.refused, "x")
        log.debug(Self.refused, "x")
        log.debug("x")
        log.notice(Self.refused, "y")
        #expect(lines.all == ["undod: [trigger.refused] x\n", "undod: [trigger.refused] y\n"])
    }

    /// Keys of undod's, as the lines here pretend to be.
    static let refused = LogKey("trigger.refused")
    static let stopped = LogKey("daemon.stopped")
}
