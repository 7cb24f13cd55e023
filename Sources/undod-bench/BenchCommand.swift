#if canImport(Glibc)
import Glibc
#endif
import Loop
import SystemClock

/// The command: parse, guard, run, report.
enum BenchCommand {
    /// Runs the bench; returns the exit status.
    static func main(_ arguments: [String]) -> Int32 {
        let options: BenchOptions
        switch BenchOptions.parse(arguments) {
        case .success(let parsed): options = parsed
        case .failure(.help):
            print(BenchOptions.help)
            return 0
        case .failure(.usage(let problem)):
            printError("undod-bench: \(problem); see undod-bench --help.")
            return 2
        }
        if let address = options.floorService { return FloorService.run(address: address, name: options.floorName) }
        let scale: Scale = options.quick ? .quick : .full
        let budget = options.timeLimit ?? scale.timeLimit
        // The last resort: if a wait somewhere were not bounded after all.
        RunGuard.install(seconds: budget + 15)
        let start = SystemTime.monotonicNanoseconds
        let scratch: Scratch
        do {
            scratch = try Scratch()
        } catch {
            printError("undod-bench: \(error)")
            return 1
        }
        defer { scratch.remove() }
        let rows: [Row]
        let pinned: Int32?
        do {
            let bench = try Bench(options: options, scratch: scratch,
                                  deadline: start + Int64(budget) * 1_000_000_000)
            pinned = bench.pinnedCPU
            rows = bench.run()
            bench.shutDown()
        } catch {
            RunGuard.killAll()
            printError("undod-bench: \(error)")
            return 1
        }
        RunGuard.killAll()
        let machine = Machine.current()
        let mode = options.quick ? "quick" : "full"
        let seconds = SystemTime.seconds(since: start)
        let text = options.json
            ? Report.json(rows, machine: machine, mode: mode, seconds: seconds, pinnedCPU: pinned)
            : Report.table(rows, machine: machine, mode: mode, seconds: seconds, pinnedCPU: pinned)
        print(text, terminator: "")
        return rows.contains { $0.summary == nil } ? 1 : 0
    }

    /// Writes one line to stderr.
    static func printError(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
}
