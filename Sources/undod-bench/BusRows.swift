#if canImport(Glibc)
import Glibc
#endif
import DBus
import Foundation
import Loop
import SystemClock
import Undo1

/// Rows 1–4: one undod, one app, one trigger.
struct BusRows {
    /// The run this measures in.
    let bench: Bench

    /// The stacks and connections rows 1–4 share.
    struct Setup {
        /// The undod of rows 1–4.
        let undod: UndodInstance
        /// The app: it owns the stacks, pushes, and answers Apply.
        let app: BenchApp
        /// The trigger's connection (row 3's UndoFocused and its Pings).
        let trigger: Connection
        /// A `persist = false` stack with the default limits.
        let memoryStack: String
        /// A `persist = true` stack with the default limits.
        let persistentStack: String
        /// The stack row 3 fills and undoes.
        let triggerStack: String

        /// The name the bench's calls go to (undod's, or the floor service's).
        var service: String { undod.busName }

        /// undod's, the bus's and the bench's processes (0: the bench), to pin.
        func processes(bus: pid_t) -> [pid_t] { [0, bus, undod.process.pid] }

        /// Closes the connections and kills undod (or what stands in for it).
        func close() {
            trigger.close()
            app.close()
            undod.kill()
        }
    }

    /// Measures rows 1–4 of those `wanted` on one undod with one app and one trigger.
    func busRows(_ wanted: Set<Int>) -> [Row] {
        // Row 8 is measured by row 2's calls.
        let measured = wanted.contains(8) ? wanted.union([2]) : wanted
        var rows = [Bench.row1(), Bench.row2(), Bench.row3(), Bench.row4()].filter { measured.contains($0.number) }
        var cpuRow = wanted.contains(8) ? Bench.row8() : nil
        let setup: Setup
        do {
            setup = try makeSetup()
        } catch {
            for index in rows.indices { rows[index].error = error.description }
            cpuRow?.error = error.description
            return rows + (cpuRow.map { [$0] } ?? [])
        }
        defer { setup.close() }
        // The floor service runs beside undod: rows 1-3 (and 8) alternate
        // between the two round by round, so that the machine's drift over
        // seconds lands on both alike.
        let floor = RepeatPass.repeatable(rows, measuredOrNot: true).isEmpty ? nil
            : RepeatPass(busRows: self).floorBeside(&rows)
        defer { floor?.close() }
        let processes = setup.processes(bus: bench.bus.pid) + (floor.map { [$0.undod.process.pid] } ?? [])
        defer { CPUPin.set(processes, cpu: nil) }
        for index in rows.indices {
            let start = SystemTime.monotonicNanoseconds
            // Throughput needs every CPU; the round trips run on one.
            let cpu = rows[index].number == 2 ? nil : bench.pinnedCPU
            if !CPUPin.set(processes, cpu: cpu) {
                bench.progress("warning: could not set the CPU affinity; row \(rows[index].number) runs unpinned")
            }
            do {
                try bench.checkBudget("row \(rows[index].number)")
                switch rows[index].number {
                case 1: try measureLatency(&rows[index], setup, floor: floor)
                case 2: try measureThroughput(&rows[index], setup, cpu: &cpuRow, floor: floor)
                case 3: try measureTrigger(&rows[index], setup, floor: floor)
                default: try measurePersistence(&rows[index], setup)
                }
            } catch {
                rows[index].error = error.description
                if rows[index].number == 2 { cpuRow?.error = error.description }
            }
            bench.progress("row \(rows[index].number) done in \(Report.format(SystemTime.seconds(since: start), digits: 1)) s")
        }
        measureWithASubscriber(&rows, setup, processes: processes)
        do {
            try setup.undod.stop()
        } catch {
            bench.progress("warning: \(error.description)")
        }
        if let cpuRow, let after = rows.firstIndex(where: { $0.number == 2 }) { rows.insert(cpuRow, at: after + 1) }
        return rows.filter { wanted.contains($0.number) }
    }

    /// Rows 1–3 again with one subscriber on the bus (`undoctl watch`, which
    /// subscribes to the stacks' signals): reported next to each figure, so
    /// that the cost of watching surprises nobody. The targets are for the
    /// figures without one.
    private func measureWithASubscriber(_ rows: inout [Row], _ setup: Setup, processes: [pid_t]) {
        let indices = RepeatPass.repeatable(rows)
        guard !indices.isEmpty else { return }
        let start = SystemTime.monotonicNanoseconds
        guard let watcher = RepeatPass(busRows: self).prepareAgain("with a subscriber", budget: "rows 1-3 with a subscriber", &rows, indices,
                                         { () throws(BenchError) in try startSubscriber(setup) }) else { return }
        defer { watcher.kill() }
        for index in indices {
            var again = rows[index]
            let cpu = again.number == 2 ? nil : bench.pinnedCPU
            CPUPin.set(processes + [watcher.pid], cpu: cpu)
            do {
                try bench.checkBudget("row \(again.number) with a subscriber")
                var unreported: Row?
                try RepeatPass(busRows: self).measureAgain(&again, setup, cpu: &unreported)
                RepeatPass.note(again, as: "with one subscriber on the bus (undoctl watch)", key: "with_subscriber",
                          under: &rows[index])
            } catch {
                rows[index].detail += "\n   with a subscriber: \(error.description)"
            }
        }
        CPUPin.set(processes + [watcher.pid], cpu: nil)
        bench.progress("rows 1-3 with a subscriber done in \(Report.format(SystemTime.seconds(since: start), digits: 1)) s")
    }

    /// Starts `undoctl watch` (next to undod) on the bus and waits until
    /// undod announces a push to it: it has subscribed.
    private func startSubscriber(_ setup: Setup) throws(BenchError) -> ChildProcess {
        let undoctl = URL(fileURLWithPath: bench.options.undodPath).deletingLastPathComponent().appendingPathComponent("undoctl").path
        let watch = try ChildProcess(path: undoctl, arguments: ["--address", bench.bus.address, "watch"], name: "undoctl watch")
        var seen = false
        let subscription = setup.trigger.subscribe(SignalMatch(sender: setup.undod.uniqueName,
                                                               interface: Undo1.stackInterface,
                                                               member: PushedSignal.member)) { _ in seen = true }
        defer { setup.trigger.unsubscribe(subscription) }
        _ = try CallRunner.once(setup.trigger, try Calls.pingBus(), what: "a Ping of the bus")
        for _ in 0..<100 where !seen {
            _ = try CallRunner.once(setup.app.connection,
                                    try Calls.push(stack: setup.memoryStack, name: "Probe", undo: [1], redo: [2],
                                                   to: setup.service),
                                    what: "a probe push", child: setup.undod.process)
            try? setup.trigger.loop.wait(for: "undoctl watch to subscribe", timeoutMilliseconds: 100,
                                         child: setup.undod.process) { seen }
        }
        guard seen else {
            watch.kill()
            throw BenchError("undoctl watch did not subscribe within 10 s.")
        }
        return watch
    }

    private func makeSetup() throws(BenchError) -> Setup {
        let state = try bench.scratch.directory("state-main")
        let undod = try bench.startUndod("undod-main", config: """
            # undod-bench, rows 1-4: the defaults, with focus by recency.
            [focus]
            strategy = recent
            [notify]
            enabled = false
            """, stateDirectory: state)
        return try setUp(undod) { app, child throws(BenchError) in
            (memory: try app.register("bench.memory", RegistrationOptions(persist: false), child: child),
             persistent: try app.register("bench.persistent", RegistrationOptions(persist: true), child: child),
             trigger: try app.register("bench.trigger",
                                       RegistrationOptions(limit: UInt32(bench.scale.triggerCalls + 16), persist: false),
                                       child: child))
        }
    }

    /// The app and the trigger on `service` (undod, or the floor service),
    /// with the stacks `register` makes, every side warmed up; `service` is
    /// killed when that fails.
    func setUp(_ service: UndodInstance,
               register: (BenchApp, ChildProcess) throws(BenchError) -> (memory: String, persistent: String,
                                                                          trigger: String)) throws(BenchError) -> Setup {
        do throws(BenchError) {
            let app = try BenchApp(address: bench.bus.address, loop: bench.loop)
            let trigger: Connection
            do {
                trigger = try Connection(address: bench.bus.address, loop: bench.loop)
            } catch {
                throw BenchError("Cannot connect to the private bus: \(error.message)")
            }
            let child = service.process
            let stacks = try register(app, child)
            let setup = Setup(undod: service, app: app, trigger: trigger, memoryStack: stacks.memory,
                              persistentStack: stacks.persistent, triggerStack: stacks.trigger)
            // Warm both sides up: code paths, allocator, the bus's caches.
            _ = try CallRunner.sequential(app.connection, try pings(setup, bench.scale.warmUp),
                                          what: "Ping", child: child)
            for stack in stacks.persistent == stacks.memory ? [stacks.memory] : [stacks.memory, stacks.persistent] {
                _ = try CallRunner.sequential(app.connection, try pushes(setup, stack, bench.scale.warmUp), what: "Push",
                                              child: child)
            }
            return setup
        } catch {
            service.kill()
            throw error
        }
    }

    func pings(_ setup: Setup, _ count: Int) throws(BenchError) -> [Message] {
        Calls.copies(of: try Calls.ping(setup.undod.uniqueName), count)
    }

    private static let undoPayload = Bench.payload(64, 1)
    private static let redoPayload = Bench.payload(64, 2)

    func pushes(_ setup: Setup, _ stack: String, _ count: Int) throws(BenchError) -> [Message] {
        Calls.copies(of: try Calls.push(stack: stack, undo: Self.undoPayload, redo: Self.redoPayload,
                                            to: setup.service), count)
    }

    /// The floor service's rounds (`a` ÷ `b` each), noted under `row` as
    /// its floor.
    func noteFloor(_ floor: (a: [Double], b: [Double]), under row: inout Row) {
        var measured = row
        measured.summary = Summary(zip(floor.a, floor.b).map { $0 / $1 })
        RepeatPass.note(measured, as: RepeatPass.floorLabel, key: "floor_service", under: &row)
        row.floor = measured.summary?.median
    }

    /// Rounds of `calls` pairs of calls on one connection, the two sides
    /// alternating call by call; one figure per round for each side: the
    /// median round trip in microseconds. `everyCall` gets each round's
    /// round trips themselves (nanoseconds), for a row that reports its tail.
    private func pairedRounds(_ rounds: Int, _ connection: Connection, child: ChildProcess, what: (String, String),
                              a: () throws(BenchError) -> [Message], b: () throws(BenchError) -> [Message],
                              everyCall: (_ a: [Int64], _ b: [Int64]) -> Void = { _, _ in })
        throws(BenchError) -> (a: [Double], b: [Double]) {
        var first: [Double] = [], second: [Double] = []
        for _ in 0..<rounds {
            let result = try CallRunner.alternating(connection, try a(), try b(), what: what, child: child)
            everyCall(result.a, result.b)
            first.append(Summary.medianMicroseconds(result.a))
            second.append(Summary.medianMicroseconds(result.b))
        }
        return (first, second)
    }

    /// Row 1: the median round trip of a Push and of a Ping, from the same
    /// connection, one call at a time; on `floor` too, round by round.
    func measureLatency(_ row: inout Row, _ setup: Setup, floor: Setup? = nil) throws(BenchError) {
        let n = bench.scale.latencyCalls
        let sides = try Rounds.alternate(bench.scale.latencyRounds, [setup] + (floor.map { [$0] } ?? [])) {
            side throws(BenchError) in
            let result = try CallRunner.alternating(side.app.connection, try pushes(side, side.memoryStack, n),
                                                    try pings(side, n), what: ("Push", "Ping"), child: side.undod.process)
            return (Summary.medianMicroseconds(result.a), Summary.medianMicroseconds(result.b))
        }
        let (push, ping) = sides[0]
        row.summary = Summary(zip(push, ping).map { $0 / $1 })
        let pushMedian = Summary(push).median, pingMedian = Summary(ping).median
        row.detail = "Push \(Report.format(pushMedian, digits: 1)) µs, Ping \(Report.format(pingMedian, digits: 1)) µs, "
            + "+\(Report.format(pushMedian - pingMedian, digits: 1)) µs (medians of \(n) calls a side a round, alternating, \(bench.scale.latencyRounds) rounds; 64 B undo + 64 B redo)"
        // The layer's own cost: a Ping to undod (answered inside its loop)
        // against a Ping to the bus itself (answered by dbus-daemon).
        let (daemonPing, busPing) = try pairedRounds(
            max(3, bench.scale.latencyRounds / 3), setup.app.connection, child: setup.undod.process,
            what: ("Ping to undod", "Ping to the bus"),
            a: { () throws(BenchError) in try pings(setup, n) },
            b: { () throws(BenchError) in Calls.copies(of: try Calls.pingBus(), n) })
        let daemonPingMedian = Summary(daemonPing).median, busPingMedian = Summary(busPing).median
        row.detail += "\n   Ping to undod \(Report.format(daemonPingMedian, digits: 1)) µs ÷ Ping to the bus "
            + "\(Report.format(busPingMedian, digits: 1)) µs = \(Report.format(daemonPingMedian / busPingMedian, digits: 2)) ×"
        row.values = [("push_us", pushMedian), ("ping_us", pingMedian), ("ping_undod_us", daemonPingMedian),
                      ("ping_bus_us", busPingMedian)]
        if sides.count > 1 { noteFloor(sides[1], under: &row) }
    }

    /// Row 2 (and row 8, `cpuRow`, with its calls): see `ThroughputRow`;
    /// on `floor` too, round by round.
    func measureThroughput(_ row: inout Row, _ setup: Setup, cpu cpuRow: inout Row?,
                           floor: Setup? = nil) throws(BenchError) {
        try ThroughputRow(busRows: self).measure(&row, setup, cpu: &cpuRow, floor: floor)
    }

    /// Row 3: `UndoFocused` from a separate trigger connection, answered only
    /// after undod's `Apply` to the app (this process) comes back — four
    /// trips through the bus — against one Ping from the same connection;
    /// on `floor` too, round by round.
    func measureTrigger(_ row: inout Row, _ setup: Setup, floor: Setup? = nil) throws(BenchError) {
        let sides = try Rounds.alternate(bench.scale.triggerRounds, [setup] + (floor.map { [$0] } ?? []),
                                          triggerRound)
        let (undo, ping) = sides[0]
        row.summary = Summary(zip(undo, ping).map { $0 / $1 })
        let n = bench.scale.triggerCalls
        let undoMedian = Summary(undo).median, pingMedian = Summary(ping).median
        row.detail = "UndoFocused \(Report.format(undoMedian, digits: 1)) µs, Ping \(Report.format(pingMedian, digits: 1)) µs, "
            + "+\(Report.format(undoMedian - 2 * pingMedian, digits: 1)) µs over 2 Pings, the floor (\(n) calls a side a round, alternating, \(bench.scale.triggerRounds) rounds)"
        row.values = [("undo_focused_us", undoMedian), ("ping_us", pingMedian)]
        if sides.count > 1 { noteFloor(sides[1], under: &row) }
    }

    /// One round of row 3 on `setup`: the trigger stack filled (untimed;
    /// the pushes also focus it), then `UndoFocused` and Ping alternating;
    /// each side's median round trip. Throws unless every call undid on
    /// the trigger stack with one `Apply`.
    private func triggerRound(_ setup: Setup) throws(BenchError) -> (a: Double, b: Double) {
        let child = setup.undod.process
        let n = bench.scale.triggerCalls
        let fill = try pushes(setup, setup.triggerStack, n)
        _ = try CallRunner.pipelined(setup.app.connection, count: n, inFlight: bench.scale.inFlight,
                                     what: "Push to the trigger stack", child: child) { fill[$0] }
        let appliesBefore = setup.app.applies
        let result = try CallRunner.alternating(setup.trigger, Calls.copies(of: try Calls.undoFocused(to: setup.service), n),
                                                try pings(setup, n), what: ("UndoFocused", "Ping"), child: child)
        guard result.lastA?.arguments.first?.string == setup.triggerStack else {
            throw BenchError("UndoFocused undid on \(result.lastA?.arguments.first?.string ?? "nothing"), "
                + "not on the bench's trigger stack \(setup.triggerStack).")
        }
        guard setup.app.applies - appliesBefore == n else {
            throw BenchError("\(n) UndoFocused calls made \(setup.app.applies - appliesBefore) Apply calls.")
        }
        return (Summary.medianMicroseconds(result.a), Summary.medianMicroseconds(result.b))
    }

    /// Row 4: Push round trips to a persistent stack and a memory-only one,
    /// with the slowest of them (what the checkpoints cost shows there).
    private func measurePersistence(_ row: inout Row, _ setup: Setup) throws(BenchError) {
        let n = bench.scale.latencyCalls
        var allPersistent: [Int64] = [], allMemory: [Int64] = []
        let (persistent, memory) = try pairedRounds(
            bench.scale.latencyRounds, setup.app.connection, child: setup.undod.process,
            what: ("Push to the persistent stack", "Push to the memory-only stack"),
            a: { () throws(BenchError) in try pushes(setup, setup.persistentStack, n) },
            b: { () throws(BenchError) in try pushes(setup, setup.memoryStack, n) },
            everyCall: { allPersistent += $0; allMemory += $1 })
        row.summary = Summary(zip(persistent, memory).map { $0 / $1 })
        let persistentMedian = Summary(persistent).median, memoryMedian = Summary(memory).median
        func tail(_ times: [Int64]) -> String {
            "p99 \(Report.format(Summary.quantileMicroseconds(times, 0.99), digits: 1)) µs, slowest "
                + "\(Report.format(Summary.quantileMicroseconds(times, 1) / 1_000, digits: 2)) ms"
        }
        row.detail = "persistent \(Report.format(persistentMedian, digits: 1)) µs, "
            + "memory-only \(Report.format(memoryMedian, digits: 1)) µs (\(n) calls a side a round, alternating, "
            + "\(bench.scale.latencyRounds) rounds)\n   persistent \(tail(allPersistent)); memory-only \(tail(allMemory))"
        row.values = [("persistent_us", persistentMedian), ("memory_us", memoryMedian),
                      ("persistent_p99_us", Summary.quantileMicroseconds(allPersistent, 0.99)),
                      ("persistent_slowest_us", Summary.quantileMicroseconds(allPersistent, 1)),
                      ("memory_p99_us", Summary.quantileMicroseconds(allMemory, 0.99)),
                      ("memory_slowest_us", Summary.quantileMicroseconds(allMemory, 1))]
    }
}
