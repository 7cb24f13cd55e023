import Testing
@testable import undod_bench

/// The bench's arithmetic and parsing: medians, targets, number formats,
/// JSON text and the command line. (Timings themselves are never asserted.)
@Suite struct ReportingTests {
    @Test(arguments: [
        ([3.0], 3.0, 3.0, 3.0),
        ([4.0, 1.0, 3.0], 3.0, 1.0, 4.0),
        ([4.0, 1.0, 3.0, 2.0], 2.5, 1.0, 4.0),
    ])
    func summaries(values: [Double], median: Double, min: Double, max: Double) {
        let summary = Summary(values)
        #expect(summary.median == median && summary.min == min && summary.max == max)
        #expect(summary.count == values.count)
    }

    @Test func targetsPointBothWays() {
        let atMost = Target(bound: .atMost, limit: 1.10, digits: 2)
        #expect(atMost.isMet(by: 1.10) && !atMost.isMet(by: 1.11))
        #expect(atMost.text == "≤ 1.10")
        let atLeast = Target(bound: .atLeast, limit: 0.9, digits: 2)
        #expect(atLeast.isMet(by: 0.95) && !atLeast.isMet(by: 0.89))
        #expect(atLeast.text == "≥ 0.90")
    }

    @Test(arguments: [
        (1.234, 2, "1.23"), (0.005, 2, "0.01"), (-0.14, 1, "-0.1"), (-0.04, 1, "0.0"),
        (245.6, 0, "246"), (3.0, 2, "3.00"), (Double.nan, 1, "n/a"),
    ])
    func numbers(value: Double, digits: Int, text: String) {
        #expect(Report.format(value, digits: digits) == text)
    }

    @Test func jsonIsOneObjectWithEveryRow() {
        var row = Bench.row1()
        row.summary = Summary([1.5, 1.6])
        row.values = [("push_us", 60.5)]
        row.detail = "a \"quoted\" detail"
        var failed = Bench.row5()
        failed.error = "undod exited"
        let machine = Machine(processors: 2, cpuModel: "Test CPU", memoryBytes: 1 << 30, kernel: "6.0")
        let json = Report.json([row, failed], machine: machine, mode: "quick", seconds: 1.25, pinnedCPU: 1)
        #expect(json.hasPrefix("{") && json.hasSuffix("}\n"))
        #expect(json.contains("\"key\":\"latency\",") && json.contains("\"median\":1.55"))
        #expect(json.contains("\"met\":false") && json.contains("\"met\":null"))
        #expect(json.contains("a \\\"quoted\\\" detail"))
        #expect(json.contains("\"error\":\"undod exited\""))
        #expect(json.contains("\"round_trip_cpu\":1"))
    }

    /// Rows 1, 2, 3 and 8 are judged by their distance from the floor
    /// service once it is measured, by their own figure until then.
    @Test func aRowWithTheFloorMeasuredIsJudgedByItsDistance() {
        var row = Bench.row1()
        row.summary = Summary([1.16])
        #expect(row.met == false && row.goalText == "≤ 1.10")
        row.floor = 1.12
        #expect(row.met == true && row.goalText == "≤ floor + 0.05")
        row.floor = 1.10
        #expect(row.met == false)
        var throughput = Bench.row2()
        throughput.summary = Summary([0.78])
        throughput.floor = 0.82
        #expect(throughput.met == true && throughput.goalText == "≥ floor − 0.05")
        let machine = Machine(processors: 2, cpuModel: "Test CPU", memoryBytes: 1 << 30, kernel: "6.0")
        let table = Report.table([row, throughput], machine: machine, mode: "quick", seconds: 1, pinnedCPU: nil)
        #expect(table.contains("undod over the floor: +0.06 ×") && table.contains("undod over the floor: −0.04 ×"))
        #expect(table.contains("1 of 2 targets met"))
        let json = Report.json([row], machine: machine, mode: "quick", seconds: 1, pinnedCPU: nil)
        #expect(json.contains("\"target_over_floor\":{"))
    }

    @Test func aReportedRowHasNoTargetAndCountsForNone() {
        var reported = UndoKitRow.row7()
        reported.summary = Summary([1.5])
        var met = Bench.row6()
        met.summary = Summary([10])
        let machine = Machine(processors: 2, cpuModel: "Test CPU", memoryBytes: 1 << 30, kernel: "6.0")
        let table = Report.table([met, reported], machine: machine, mode: "quick", seconds: 1, pinnedCPU: nil)
        #expect(table.contains("(reported)"))
        #expect(table.contains("1 of 1 targets met"))
        #expect(reported.met == nil)
        let json = Report.json([reported], machine: machine, mode: "quick", seconds: 1, pinnedCPU: nil)
        #expect(json.contains("\"target\":null") && json.contains("\"met\":null"))
    }

    @Test func commandLines() throws {
        let parsed = try BenchOptions.parse(["--quick", "--json", "--only", "1,3", "--no-pin", "--time-limit", "30"]).get()
        #expect(parsed.quick && parsed.json && !parsed.pin)
        #expect(parsed.only == [1, 3] && parsed.timeLimit == 30)
        #expect(try BenchOptions.parse(["--only", "7"]).get().only == [7])
        #expect(try BenchOptions.parse(["--only", "8"]).get().only == [8])
        #expect(try BenchOptions.parse(["--floor-service", "unix:path=/tmp/b"]).get().floorService == "unix:path=/tmp/b")
        #expect(try BenchOptions.parse(["--floor-service", "unix:path=/tmp/b"]).get().floorName == "org.undod.Undo1")
        let named = try BenchOptions.parse(["--floor-service", "unix:path=/tmp/b", "--floor-name", "org.undod.BenchFloor"])
        #expect(try named.get().floorName == "org.undod.BenchFloor")
        #expect(throws: BenchOptions.ExitRequest.self) { try BenchOptions.parse(["--floor-name"]).get() }
        #expect(throws: BenchOptions.ExitRequest.self) { try BenchOptions.parse(["--floor-service"]).get() }
        #expect(throws: BenchOptions.ExitRequest.self) { try BenchOptions.parse(["--only", "12"]).get() }
        #expect(try BenchOptions.parse(["--only", "9,11", "--shell-tools", "/opt/x"]).get().only == [9, 11])
        #expect(try BenchOptions.parse(["--shell-tools", "/opt/x"]).get().shellTools == "/opt/x")
        #expect(throws: BenchOptions.ExitRequest.self) { try BenchOptions.parse(["--shell-tools"]).get() }
        #expect(throws: BenchOptions.ExitRequest.self) { try BenchOptions.parse(["--frobnicate"]).get() }
        #expect(throws: BenchOptions.ExitRequest.self) { try BenchOptions.parse(["--help"]).get() }
    }

    /// Undod and the floor service take turns within each round, the
    /// order reversed every other round, so that a drift of the machine
    /// lands on both alike; each side keeps its own figures.
    @Test func sidesAlternateRoundByRound() throws {
        var order: [String] = []
        let figures = try Rounds.alternate(4, ["undod", "floor"]) { (side: String) throws(BenchError) in
            order.append(side)
            return (a: Double(order.count), b: side == "undod" ? 1 : 2)
        }
        #expect(order == ["undod", "floor", "floor", "undod", "undod", "floor", "floor", "undod"])
        #expect(figures.count == 2)
        #expect(figures[0].a == [1, 4, 5, 8] && figures[0].b == [1, 1, 1, 1])
        #expect(figures[1].a == [2, 3, 6, 7] && figures[1].b == [2, 2, 2, 2])
    }
}
