#if canImport(Glibc)
import Glibc
#endif
import DBus
import Loop
import SystemClock
import Undo1

/// Rows 1, 2, 3 and 8 measured again with the floor service beside undod:
/// the same `Connection` and object server, on the same bus and CPUs,
/// but a `Push` answered at once with a group id, nothing read, checked or
/// kept, and an `UndoFocused` that only calls `Apply` and answers.
/// Its figures are what the transport alone allows; they are reported under
/// the rows (not goals), so that how much of a row is the service's own work
/// and how much is the wire's can be read off every run. Rows 1 and 3
/// alternate with undod's round by round (`BusRows.measureLatency`,
/// `measureTrigger`): measured a pass apart, the floor moved by more than
/// the goal between the two on a VM.
extension RepeatPass {
    /// The floor service started beside undod, with its app and trigger
    /// warmed up; nil, with why under each of rows 1–3, when it cannot be.
    func floorBeside(_ rows: inout [Row]) -> BusRows.Setup? {
        prepareAgain("the floor service", budget: "the floor service", &rows,
                     Self.repeatable(rows, measuredOrNot: true), makeFloorSetup)
    }

    /// Appends the floor service's figure to each of rows 1, 2, 3 and 8 that
    /// was measured and has none yet (row 2, and row 8 with it: their
    /// pipelined calls use every CPU, and are measured after undod's);
    /// says why under the row when it cannot.
    func measureOnTheFloor(_ rows: inout [Row], cpuRow: inout Row?, _ setup: BusRows.Setup) {
        let indices = Self.repeatable(rows).filter { rows[$0].floor == nil }
        guard !indices.isEmpty else { return }
        let start = SystemTime.monotonicNanoseconds
        let processes = setup.processes(bus: bench.bus.pid)
        defer { CPUPin.set(processes, cpu: nil) }
        for index in indices {
            var again = rows[index]
            CPUPin.set(processes, cpu: again.number == 2 ? nil : bench.pinnedCPU)
            // Row 8's CPU figures come with row 2's calls only.
            var floorCPU: Row? = cpuRow == nil || again.number != 2 ? nil : Bench.row8()
            do {
                try bench.checkBudget("row \(again.number) on the floor service")
                try measureAgain(&again, setup, cpu: &floorCPU)
            } catch {
                rows[index].detail += "\n   the floor service: \(error.description)"
                continue
            }
            Self.note(again, as: Self.floorLabel, key: "floor_service", under: &rows[index])
            rows[index].floor = again.summary?.median
            if let floorCPU, cpuRow != nil {
                Self.note(floorCPU, as: Self.floorLabel, key: "floor_service", under: &cpuRow!)
                cpuRow?.floor = floorCPU.summary?.median
            }
        }
        bench.progress("rows 2 and 8 on the floor service done in \(Report.format(SystemTime.seconds(since: start), digits: 1)) s")
    }

    /// What a row says before the floor service's figure.
    static let floorLabel = "the floor service (this transport, no service behind it)"

    /// The floor service on the bench's bus beside undod, an app with one
    /// stack on it (the service's `Register` keeps nothing), both warmed up.
    private func makeFloorSetup() throws(BenchError) -> BusRows.Setup {
        let floor = try UndodInstance(floorServiceOn: bench.bus.address, watcher: bench.watcher, scratch: bench.scratch)
        return try busRows.setUp(floor) { app, child throws(BenchError) in
            let stack = try app.register("bench.floor", RegistrationOptions(persist: false), with: floor.busName,
                                         child: child)
            return (stack, stack, stack)
        }
    }
}
