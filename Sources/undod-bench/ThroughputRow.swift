import DBus

/// Row 2: calls per second with `inFlight` unanswered at all times, `Push`
/// against `Ping`, on every CPU; and the CPU time each process spent a
/// call, which says who bounds it. Row 8, when asked for, gets the
/// service's CPU a Push ÷ a Ping, one figure per round. With the floor
/// service beside undod, every round runs on both, the order of the two
/// services and of Push and Ping reversed every other round, so that a
/// drift of the machine lands on both alike.
struct ThroughputRow {
    /// The rows this belongs to (their setups and calls).
    let busRows: BusRows
    /// The run this measures in.
    var bench: Bench { busRows.bench }

    /// One service's rounds.
    private struct Sides {
        /// Calls a second, one figure a round.
        var push: [Double] = [], ping: [Double] = []
        /// CPU time spent by the service, the bus and the bench, in all.
        var pushCPU = CPUTimes(), pingCPU = CPUTimes()
        /// The service's CPU time, one figure a round.
        var pushService: [Int64] = [], pingService: [Int64] = []
    }

    /// Measures row 2 on `setup` (and on `floor`, round by round), and
    /// row 8 into `cpuRow` when it is not nil.
    func measure(_ row: inout Row, _ setup: BusRows.Setup, cpu cpuRow: inout Row?,
                 floor: BusRows.Setup?) throws(BenchError) {
        let setups = [setup] + (floor.map { [$0] } ?? [])
        var sides = Array(repeating: Sides(), count: setups.count)
        for round in 0..<bench.scale.throughputRounds {
            let order = round % 2 == 0 ? Array(setups.indices) : setups.indices.reversed()
            for index in order {
                try measureRound(on: setups[index], pushFirst: round % 2 == 0, into: &sides[index])
            }
        }
        describe(&row, cpu: &cpuRow, sides[0])
        guard let floorSides = sides.dropFirst().first else { return }
        busRows.noteFloor((floorSides.push, floorSides.ping), under: &row)
        if cpuRow != nil {
            busRows.noteFloor((floorSides.pushService.map(Double.init), floorSides.pingService.map(Double.init)),
                              under: &cpuRow!)
        }
    }

    /// One round on `setup`: its pushes and its pings, each pipelined.
    private func measureRound(on setup: BusRows.Setup, pushFirst: Bool, into sides: inout Sides) throws(BenchError) {
        let n = bench.scale.throughputCalls
        let pushes = try busRows.pushes(setup, setup.memoryStack, n), pings = try busRows.pings(setup, n)
        for isPush in pushFirst ? [true, false] : [false, true] {
            let service = setup.undod.process
            let before = CPUTimes.now(undod: service.pid, bus: bench.bus.pid)
            let messages = isPush ? pushes : pings
            let elapsed = try CallRunner.pipelined(setup.app.connection, count: n, inFlight: bench.scale.inFlight,
                                                   what: isPush ? "Push" : "Ping", child: service) { messages[$0] }
            let spent = CPUTimes.now(undod: service.pid, bus: bench.bus.pid) - before
            let rate = Double(n) / (Double(elapsed) / 1e9)
            if isPush {
                sides.push.append(rate)
                sides.pushCPU += spent
                sides.pushService.append(spent.undod)
            } else {
                sides.ping.append(rate)
                sides.pingCPU += spent
                sides.pingService.append(spent.undod)
            }
        }
    }

    /// Row 2's and row 8's figures and lines, from undod's rounds.
    private func describe(_ row: inout Row, cpu cpuRow: inout Row?, _ sides: Sides) {
        let n = bench.scale.throughputCalls
        let calls = n * bench.scale.throughputRounds
        /// Microseconds a call of `nanoseconds` over all the rounds.
        func perCall(_ nanoseconds: Int64) -> Double { Double(nanoseconds) / Double(max(1, calls)) / 1_000 }
        row.summary = Summary(zip(sides.push, sides.ping).map { $0 / $1 })
        if cpuRow != nil {
            cpuRow?.summary = Summary(zip(sides.pushService, sides.pingService).map { Double($0) / Double(max(1, $1)) })
            cpuRow?.detail = "undod's CPU a call: Push \(Report.format(perCall(sides.pushCPU.undod), digits: 1)) µs, "
                + "Ping \(Report.format(perCall(sides.pingCPU.undod), digits: 1)) µs "
                + "(row 2's calls, /proc/PID/schedstat); at most 1.35 lets row 2 reach 0.80 on two cores"
            cpuRow?.values = [("push_cpu_undod_us", perCall(sides.pushCPU.undod)),
                              ("ping_cpu_undod_us", perCall(sides.pingCPU.undod))]
        }
        let pushMedian = Summary(sides.push).median, pingMedian = Summary(sides.ping).median
        row.detail = "Push \(Report.format(pushMedian, digits: 0))/s, Ping \(Report.format(pingMedian, digits: 0))/s "
            + "(\(n) calls a round, \(bench.scale.inFlight) in flight, \(bench.scale.throughputRounds) rounds); CPU a call: "
            + "Push \(sides.pushCPU.perCall(calls)); Ping \(sides.pingCPU.perCall(calls))"
        row.values = [("push_per_s", pushMedian), ("ping_per_s", pingMedian),
                      ("push_cpu_undod_us", perCall(sides.pushCPU.undod)),
                      ("push_cpu_bus_us", perCall(sides.pushCPU.bus)),
                      ("push_cpu_bench_us", perCall(sides.pushCPU.bench)),
                      ("ping_cpu_undod_us", perCall(sides.pingCPU.undod)),
                      ("ping_cpu_bus_us", perCall(sides.pingCPU.bus)),
                      ("ping_cpu_bench_us", perCall(sides.pingCPU.bench))]
    }
}
