#if canImport(Glibc)
import Glibc
#endif
import Undo1

/// What the command line chose.
struct BenchOptions {
    /// `--quick`: fewer rounds and smaller counts, for a look while developing.
    var quick = false
    /// `--json`: one JSON object on stdout instead of the table.
    var json = false
    /// `--undod PATH`: the daemon to measure (default: the `undod` next to this executable).
    var undod: String?
    /// `--shell-tools DIR`: where rows 9–11 find undoctl, undod-files and
    /// undod-files-run (default: next to the undod measured).
    var shellTools: String?
    /// `--dbus-daemon PATH`: the bus daemon.
    var dbusDaemon = "/usr/bin/dbus-daemon"
    /// `--only 1,3`: run only these rows.
    var only: Set<Int> = Set(1...11)
    /// `--no-pin`: let the latency rows' processes float over every CPU.
    var pin = true
    /// `--time-limit S`: the run's budget; rows still running fail at S
    /// seconds, and everything is killed at S + 15.
    var timeLimit: Int?
    /// `--floor-service ADDRESS`: serve as the floor a flood is measured
    /// against (`FloorService`) instead of running the bench.
    var floorService: String?
    /// `--floor-name NAME`: the name the floor service owns.
    var floorName = Undo1.busName

    /// `--help`.
    static let help = """
        undod-bench — how close undod sits to the bus floor

        USAGE
          undod-bench [--quick] [--json] [--only ROWS] [--no-pin] [--undod PATH]
                      [--shell-tools DIR] [--dbus-daemon PATH] [--time-limit SECONDS]
          undod-bench --floor-service ADDRESS [--floor-name NAME]

        Starts its own private dbus-daemon and undod (never your session bus),
        and measures, interleaving the two sides of each ratio in rounds:
          1  Push round trip (64-byte payloads) ÷ Peer.Ping round trip to undod
          2  Push ÷ Ping throughput with 128 calls in flight
          3  UndoFocused answered (with the Apply round trip to this process) ÷ Ping
          4  Push to a persistent stack ÷ Push to a memory-only one (each
             side's p99 and slowest call are printed under it)
          5  undod's resident bytes per group beyond its payloads (1,000,000 groups)
          6  start-up: time to own the name with 100,000 stored groups − with none
          7  UndoKit: what a push costs the app's thread (µs), against appending
             a closure to a local array; reported, no target
          8  undod's CPU time a Push ÷ a Ping, in row 2's calls (measured with
             row 2: what bounds row 2 on two cores)
          9  the shell's undo: what the functions (undoctl shell-init bash) add
             to mv a b, ms over the plain command (goal at most 5)
         10  rm -r of 100,000 files through the functions ÷ mv of the same tree
             through them (goal at most 1.5); its undo printed under it
         11  cp of 1 GiB through the functions ÷ the plain cp; its undo printed
             under it; reported, no target
        Rows 9-11 run bash with undoctl, undod-files and undod-files-run from
        --shell-tools (make bench: the static builds, as installed).
        Rows 1-3 are measured again with one subscriber (undoctl watch), and
        rows 1-3 and 8 on the floor service (below) running beside undod: what
        the transport alone allows, rows 1 and 3 round by round alternating
        with undod's. Both are printed under the rows. Once the
        floor is measured, rows 1, 2, 3 and 8 are judged by their distance from
        it (row 1: at most floor + 0.05; 2: at least floor - 0.05; 3: floor +
        0.10 Pings; 8: floor + 0.30), else by their own figure (1.10, 0.80, 2.3,
        1.35). Each target is printed next to its figure with ✓ or ✗; targets
        are goals, and a missed one does not change the exit status.

        OPTIONS
          --quick            fewer rounds, smaller counts (100,000 groups, 10,000 stored)
          --json             print one JSON object instead of the table
          --only ROWS        run only these rows, e.g. --only 1,2
          --no-pin           rows 1, 3, 4 normally run the bench, the bus and undod
                             on one CPU, so that a round trip measures the work on
                             its path, not the scheduler; this lets them float
          --undod PATH       the undod to measure (default: next to undod-bench)
          --shell-tools DIR  where rows 9-11 find undoctl, undod-files and
                             undod-files-run (default: next to undod)
          --dbus-daemon PATH the bus daemon (default: /usr/bin/dbus-daemon)
          --time-limit S     the run's budget: a row still running at S seconds fails
                             with a message; at S + 15 everything is killed
                             (default 220; quick 90)
          --floor-service ADDRESS
                             run no bench: own org.undod.Undo1 on the bus at
                             ADDRESS and answer Register, Push and PushGroup at
                             once, reading and keeping nothing, and UndoFocused
                             with one Apply to the last app that registered,
                             until killed. scripts/flood.py floods it as it
                             floods undod: the floor of each flood on this
                             machine; the bench runs itself so, beside undod,
                             for the floor lines of rows 1-3 and 8
          --floor-name NAME  the name the floor service owns instead of
                             org.undod.Undo1
          --help             print this help

        EXIT STATUS
          0 every row measured; 1 a row could not be measured; 2 bad command line;
          3 interrupted or out of time (every child process is killed).

        EXAMPLES
          make bench
          undod-bench --quick --only 1,3
          undod-bench --json > bench.json
        """

    /// Parses the arguments; nil with a message printed for a bad line or `--help`.
    static func parse(_ arguments: [String]) -> Result<BenchOptions, ExitRequest> {
        var options = BenchOptions()
        var index = 0
        /// The argument after the flag, taken.
        func value() -> String? {
            index += 1
            return index < arguments.count ? arguments[index] : nil
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--quick": options.quick = true
            case "--json": options.json = true
            case "--no-pin": options.pin = false
            case "--undod":
                guard let path = value() else { return .failure(.usage("--undod needs a path")) }
                options.undod = path
            case "--dbus-daemon":
                guard let path = value() else { return .failure(.usage("--dbus-daemon needs a path")) }
                options.dbusDaemon = path
            case "--shell-tools":
                guard let path = value() else { return .failure(.usage("--shell-tools needs a directory")) }
                options.shellTools = path
            case "--only":
                guard let list = value() else { return .failure(.usage("--only needs a list like 1,3")) }
                let numbers = list.split(separator: ",").compactMap { Int($0) }
                guard !numbers.isEmpty, numbers.allSatisfy((1...11).contains) else {
                    return .failure(.usage("--only takes row numbers 1 to 11, like 1,3"))
                }
                options.only = Set(numbers)
            case "--time-limit":
                guard let text = value(), let seconds = Int(text), seconds > 0 else {
                    return .failure(.usage("--time-limit needs a number of seconds"))
                }
                options.timeLimit = seconds
            case "--floor-service":
                guard let address = value() else {
                    return .failure(.usage("--floor-service needs a bus address"))
                }
                options.floorService = address
            case "--floor-name":
                guard let name = value() else { return .failure(.usage("--floor-name needs a bus name")) }
                options.floorName = name
            case "--help", "-h":
                return .failure(.help)
            default:
                return .failure(.usage("unknown option “\(argument)”"))
            }
            index += 1
        }
        return .success(options)
    }

    /// Why parsing stopped.
    enum ExitRequest: Error {
        /// `--help`.
        case help
        /// A bad command line, with what was wrong.
        case usage(String)
    }

    /// The undod to run: `--undod`, or the one next to this executable.
    var undodPath: String {
        if let undod { return undod }
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return "undod" }
        let me = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = me.lastIndex(of: "/") else { return "undod" }
        return String(me[..<slash]) + "/undod"
    }
}

/// How big each measurement is: the full run, or `--quick`.
struct Scale {
    /// Calls of each kind before anything is timed.
    let warmUp: Int
    /// Rounds of rows 1 and 4.
    let latencyRounds: Int
    /// Sequential calls per side and round (rows 1, 4).
    let latencyCalls: Int
    /// Rounds of row 2.
    let throughputRounds: Int
    /// Calls per side and round (row 2).
    let throughputCalls: Int
    /// Calls in flight (row 2).
    let inFlight = 128
    /// Rounds of row 3.
    let triggerRounds: Int
    /// Undos per round (row 3).
    let triggerCalls: Int
    /// Groups held for row 5.
    let memoryGroups: Int
    /// Stacks they are spread across.
    let memoryStacks = 100
    /// Groups stored for row 6.
    let storedGroups: Int
    /// Start-ups of each kind (row 6).
    let startupRounds: Int
    /// Pushes timed on the app's thread in row 7.
    let kitPushes: Int
    /// `mv a b` of each kind timed in row 9.
    let shellCommands: Int
    /// Files in row 10's tree.
    let treeFiles: Int
    /// Bytes of row 11's file.
    let copyBytes: Int
    /// The run's budget in seconds (see `--time-limit`).
    let timeLimit: Int

    /// The full run: under 3 minutes with the build on a 2-core machine.
    static let full = Scale(
        warmUp: 500, latencyRounds: 15, latencyCalls: 1_000, throughputRounds: 9, throughputCalls: 20_000,
        triggerRounds: 9, triggerCalls: 300, memoryGroups: 1_000_000, storedGroups: 100_000, startupRounds: 7,
        kitPushes: 10_000, shellCommands: 200, treeFiles: 100_000, copyBytes: 1 << 30, timeLimit: 220)

    /// `--quick`.
    static let quick = Scale(
        warmUp: 100, latencyRounds: 5, latencyCalls: 300, throughputRounds: 3, throughputCalls: 5_000,
        triggerRounds: 3, triggerCalls: 100, memoryGroups: 100_000, storedGroups: 10_000, startupRounds: 3,
        kitPushes: 2_000, shellCommands: 40, treeFiles: 10_000, copyBytes: 64 << 20, timeLimit: 90)
}
