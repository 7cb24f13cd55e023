import Undo1

/// Rows 1, 2, 3 and 8 measured on the floor service beside undod too:
/// the same `Connection` and object server, on the same bus and CPUs,
/// but a `Push` answered at once with a group id, nothing read, checked or
/// kept, and an `UndoFocused` that only calls `Apply` and answers.
/// Its figures are what the transport alone allows; they are reported under
/// the rows (not goals), so that how much of a row is the service's own work
/// and how much is the wire's can be read off every run. Each row
/// alternates with undod's round by round (`BusRows.measureLatency`,
/// `ThroughputRow`, `BusRows.measureTrigger`): measured a pass apart, the
/// floor moved by more than the goal between the two on a VM.
extension RepeatPass {
    /// The floor service started beside undod, with its app and trigger
    /// warmed up; nil, with why under each of rows 1–3, when it cannot be.
    func floorBeside(_ rows: inout [Row]) -> BusRows.Setup? {
        prepareAgain("the floor service", budget: "the floor service", &rows,
                     Self.repeatable(rows, measuredOrNot: true), makeFloorSetup)
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
