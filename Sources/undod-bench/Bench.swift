#if canImport(Glibc)
import Glibc
#endif
import DBus
import Foundation
import Loop
import SystemClock
import Undo1

/// One run of the benchmark: a private bus, the loop, a connection that
/// watches undod's name, and the measurements.
final class Bench {
    /// What the command line chose.
    let options: BenchOptions
    /// How big each measurement is.
    let scale: Scale
    /// Where configs, state directories and logs go.
    let scratch: Scratch
    /// The private bus.
    let bus: PrivateBus
    /// The loop every connection of the bench runs on (this thread).
    let loop = EventLoop()
    /// Sees undod take its name (and nothing else).
    let watcher: Connection
    /// When the run's budget ends (monotonic nanoseconds).
    let deadline: Int64
    /// The CPU rows 1, 3 and 4 run on, or nil (`--no-pin`, or unknown).
    let pinnedCPU: Int32?

    /// Starts the bus and the watcher.
    init(options: BenchOptions, scratch: Scratch, deadline: Int64) throws(BenchError) {
        self.options = options
        self.deadline = deadline
        pinnedCPU = options.pin ? CPUPin.chosen : nil
        self.scale = options.quick ? .quick : .full
        self.scratch = scratch
        bus = try PrivateBus(scratch: scratch, executable: options.dbusDaemon)
        do {
            watcher = try Connection(address: bus.address, loop: loop)
        } catch {
            bus.stop()
            throw BenchError("Cannot connect to the private bus: \(error.message)")
        }
    }

    /// Closes the connections and stops the bus.
    func shutDown() {
        watcher.close()
        bus.stop()
    }

    /// Payloads of `size` bytes; the content does not matter to undod.
    static func payload(_ size: Int, _ seed: UInt8) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: $0) &+ seed }
    }

    /// Starts an undod with `config` on `stateDirectory`.
    func startUndod(_ label: String, config: String, stateDirectory: String) throws(BenchError) -> UndodInstance {
        try UndodInstance(executable: options.undodPath, address: bus.address, watcher: watcher, scratch: scratch,
                          label: label, config: config, stateDirectory: stateDirectory)
    }

    /// Milliseconds left of the budget, less `reserve`, and never under one
    /// second: how long a long phase may wait.
    func remainingMilliseconds(reserve: Int = 0) -> Int {
        max(1_000, Int((deadline - SystemTime.monotonicNanoseconds) / 1_000_000) - reserve)
    }

    /// Throws when the budget is spent, before a row starts.
    func checkBudget(_ what: String) throws(BenchError) {
        guard SystemTime.monotonicNanoseconds < deadline else {
            throw BenchError("Not measured: the run's time budget (--time-limit) was spent before \(what).")
        }
    }

    /// Prints progress on stderr (never in the way of `--json` on stdout).
    func progress(_ text: String) {
        var line = "undod-bench: \(text)\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }

    // MARK: The rows: what each measures and its goal

    /// Row 1, not yet measured. Judged within 0.05 of the floor service:
    /// the floor itself reads 1.09–1.10, so 1.10 is a goal for the wire.
    static func row1() -> Row {
        Row(number: 1, key: "latency", title: "Push ÷ Ping, round trip", unit: "×", digits: 2,
            target: Target(bound: .atMost, limit: 1.10, digits: 2),
            overFloor: Target(bound: .atMost, limit: 0.05, digits: 2))
    }
    /// Row 2, not yet measured; judged at most 0.05 below the floor.
    static func row2() -> Row {
        Row(number: 2, key: "throughput", title: "Push ÷ Ping, calls/s with 128 in flight", unit: "×", digits: 2,
            target: Target(bound: .atLeast, limit: 0.80, digits: 2),
            overFloor: Target(bound: .atLeast, limit: -0.05, digits: 2))
    }
    /// Row 8, measured with row 2: undod's CPU time a pipelined Push ÷ a
    /// pipelined Ping. Row 2 cannot pass 0.80 on two cores unless this is
    /// at most 1.35 (the bus's and the client's shares are not undod's).
    static func row8() -> Row {
        Row(number: 8, key: "push_cpu_ratio", title: "undod's CPU a Push ÷ a Ping (row 2)", unit: "×", digits: 2,
            target: Target(bound: .atMost, limit: 1.35, digits: 2),
            overFloor: Target(bound: .atMost, limit: 0.30, digits: 2))
    }
    /// Row 3, not yet measured; judged within 0.10 Pings of the floor.
    static func row3() -> Row {
        Row(number: 3, key: "trigger", title: "UndoFocused (with Apply) ÷ Ping", unit: "Pings", digits: 2,
            target: Target(bound: .atMost, limit: 2.3, digits: 1),
            overFloor: Target(bound: .atMost, limit: 0.10, digits: 2))
    }
    /// Row 4, not yet measured.
    static func row4() -> Row {
        Row(number: 4, key: "persistent_push", title: "persistent ÷ memory-only Push", unit: "×", digits: 2,
            target: Target(bound: .atMost, limit: 1.3, digits: 1))
    }
    /// Row 5, not yet measured.
    static func row5() -> Row {
        Row(number: 5, key: "bytes_per_group", title: "resident bytes per group beyond payloads", unit: "B",
            digits: 0, target: Target(bound: .atMost, limit: 200, digits: 0))
    }
    /// Row 6, not yet measured.
    static func row6() -> Row {
        Row(number: 6, key: "startup", title: "start-up, stored groups − empty store", unit: "ms", digits: 1,
            target: Target(bound: .atMost, limit: 300, digits: 0))
    }

    /// Runs the rows the options ask for, in order; a row that cannot be
    /// measured says why and the others still run.
    func run() -> [Row] {
        var rows: [Row] = []
        let wanted = options.only
        if !wanted.isDisjoint(with: [1, 2, 3, 4, 8]) {
            rows += BusRows(bench: self).busRows(wanted)
        }
        let groups = GroupRows(bench: self)
        let alone: [(row: Row, measure: (inout Row) throws(BenchError) -> Void)] = [
            (Self.row5(), groups.measureMemory), (Self.row6(), groups.measureStartup),
            (UndoKitRow.row7(), UndoKitRow(bench: self).measureUndoKitPush),
            (ShellRows.row9(), ShellRows(bench: self).measureAddedTime),
            (ShellRows.row10(), ShellRows(bench: self).measureTree),
            (ShellRows.row11(), ShellRows(bench: self).measureCopy),
        ]
        for (row, measure) in alone where wanted.contains(row.number) {
            rows.append(measured(row, by: measure))
        }
        return rows
    }

    /// `row` measured by `measure` after the memory budget is checked; a
    /// failure is the row's error. Says how long it took.
    private func measured(_ row: Row, by measure: (inout Row) throws(BenchError) -> Void) -> Row {
        var row = row
        let start = SystemTime.monotonicNanoseconds
        do {
            try checkBudget("row \(row.number)")
            try measure(&row)
        } catch { row.error = error.description }
        progress("row \(row.number) done in \(Report.format(SystemTime.seconds(since: start), digits: 1)) s")
        return row
    }
}
