import DBus
import Loop
import SystemClock
import Undo1
import Undo1Wire

/// Rows 5 and 6: many groups, held in memory or stored.
struct GroupRows {
    /// The run this measures in.
    let bench: Bench

    /// The undo payload of rows 5 and 6: 16 bytes.
    static let smallUndo = Bench.payload(16, 3)
    /// The redo payload of rows 5 and 6: 16 bytes.
    static let smallRedo = Bench.payload(16, 4)
    /// Payload bytes of one such group.
    static let smallGroupPayload = smallUndo.count + smallRedo.count

    /// A config that keeps every group: no count limit, byte limits far above
    /// what the bench pushes. Pushes do not move focus: the bench spreads
    /// them over 100 stacks, and a focus change per push would add a
    /// PropertiesChanged of the manager to each, slowing the fill for nothing
    /// these rows measure.
    static func keepEverything(persist: Bool) -> String {
        """
        # undod-bench: keep every group.
        [limits]
        levels = 0
        max_bytes = 4GiB
        max_total_bytes = 64GiB
        [stacks]
        persist = \(persist)
        [focus]
        strategy = recent
        follows_push = false
        [notify]
        enabled = false
        """
    }

    /// Registers `count` stacks from `app`; returns their paths.
    func registerStacks(_ app: BenchApp, count: Int, prefix: String, persist: Bool,
                        child: ChildProcess) throws(BenchError) -> [String] {
        var stacks: [String] = []
        for index in 0..<count {
            stacks.append(try app.register("\(prefix).\(index)", RegistrationOptions(persist: persist), child: child))
        }
        return stacks
    }

    /// Pushes `count` small groups round-robin across `stacks`, 128 in
    /// flight; returns the seconds it took.
    func pushSmallGroups(_ app: BenchApp, stacks: [String], count: Int, child: ChildProcess,
                         reserveMilliseconds: Int) throws(BenchError) -> Double {
        var templates: [Message] = []
        for stack in stacks {
            templates.append(try Calls.push(stack: stack, name: "Edit", undo: Self.smallUndo, redo: Self.smallRedo))
        }
        let start = SystemTime.monotonicNanoseconds
        _ = try CallRunner.pipelined(app.connection, count: count, inFlight: bench.scale.inFlight, what: "Push",
                                     child: child,
                                     timeoutMilliseconds: bench.remainingMilliseconds(reserve: reserveMilliseconds)) {
            index throws(BenchError) in
            templates[index % templates.count].copy()
        }
        return SystemTime.seconds(since: start)
    }

    /// How many stacks undod exports and how many undo groups they hold, from
    /// `GetManagedObjects` (untimed).
    func exportedGroups(_ connection: Connection, child: ChildProcess) throws(BenchError) -> (stacks: Int, groups: Int) {
        let reply = try CallRunner.once(connection, try Calls.managedObjects(), what: "GetManagedObjects", child: child)
        let stacks = StackProperties.all(inManagedObjects: reply.first)
        return (stacks.count, stacks.reduce(0) { $0 + Int($1.1.undoDepth) })
    }

    /// Row 5: undod's resident size before and after `memoryGroups` groups
    /// of 16 + 16 payload bytes across 100 memory-only stacks.
    func measureMemory(_ row: inout Row) throws(BenchError) {
        let undod = try bench.startUndod("undod-memory", config: GroupRows.keepEverything(persist: false),
                                   stateDirectory: try bench.scratch.directory("state-memory"))
        defer { undod.kill() }
        let app = try BenchApp(address: bench.bus.address, loop: bench.loop)
        defer { app.close() }
        let child = undod.process
        let stacks = try registerStacks(app, count: bench.scale.memoryStacks, prefix: "bench.memory", persist: false,
                                        child: child)
        // One group on every stack first, so the code paths and per-stack
        // structures exist before the first reading.
        _ = try pushSmallGroups(app, stacks: stacks, count: stacks.count, child: child, reserveMilliseconds: 0)
        let before = try undod.residentBytes()
        let count = bench.scale.memoryGroups - stacks.count
        // Leaves time for row 6 should this take too long.
        let seconds = try pushSmallGroups(app, stacks: stacks, count: count, child: child,
                                          reserveMilliseconds: bench.options.only.contains(6) ? 15_000 : 0)
        let after = try undod.residentBytes()
        let held = try exportedGroups(app.connection, child: child)
        guard held.groups == bench.scale.memoryGroups else {
            throw BenchError("undod holds \(held.groups) groups, not \(bench.scale.memoryGroups): it dropped some, "
                + "so bytes per group cannot be measured.")
        }
        let perGroup = Double(after - before) / Double(count) - Double(Self.smallGroupPayload)
        row.summary = Summary(single: perGroup)
        let mib = { (bytes: Int) in Report.format(Double(bytes) / 1_048_576, digits: 1) }
        row.detail = "VmRSS \(mib(before)) → \(mib(after)) MiB over \(count) groups of "
            + "\(Self.smallUndo.count) + \(Self.smallRedo.count) payload bytes on \(stacks.count) stacks "
            + "(\(Report.format(Double(count) / seconds, digits: 0)) pushes/s)"
        row.values = [("rss_before_bytes", Double(before)), ("rss_after_bytes", Double(after)),
                      ("groups", Double(count)), ("payload_bytes_per_group", Double(Self.smallGroupPayload))]
        try undod.stop()
    }

    /// Row 6: time from starting undod to it owning its name, on a store
    /// holding `storedGroups` groups and on an empty one, interleaved.
    func measureStartup(_ row: inout Row) throws(BenchError) {
        let full = try bench.scratch.directory("state-full")
        let empty = try bench.scratch.directory("state-empty")
        let config = GroupRows.keepEverything(persist: true)

        // Fill: push the groups through the bus, then stop undod cleanly.
        let fillStart = SystemTime.monotonicNanoseconds
        let filler = try bench.startUndod("undod-fill", config: config, stateDirectory: full)
        do {
            let app = try BenchApp(address: bench.bus.address, loop: bench.loop)
            defer { app.close() }
            let stacks = try registerStacks(app, count: bench.scale.memoryStacks, prefix: "bench.stored", persist: true,
                                            child: filler.process)
            _ = try pushSmallGroups(app, stacks: stacks, count: bench.scale.storedGroups, child: filler.process,
                                    reserveMilliseconds: 5_000)
        } catch {
            filler.kill()
            throw error
        }
        try filler.stop()
        let fillSeconds = SystemTime.seconds(since: fillStart)
        // The empty store: made by one start and stop, so that both sides open
        // a store that exists.
        try bench.startUndod("undod-empty", config: config, stateDirectory: empty).stop()

        var restored: (stacks: Int, groups: Int)?
        var killedByTerm = 0
        let (withGroups, withNone) = try Rounds.interleave(bench.scale.startupRounds, { () throws(BenchError) in
            let undod = try bench.startUndod("undod-start-full", config: config, stateDirectory: full)
            defer { undod.kill() }
            if restored == nil { restored = try exportedGroups(bench.watcher, child: undod.process) }
            if try !undod.stop(toleratingEarlyTerm: true) { killedByTerm += 1 }
            return undod.startMilliseconds
        }, { () throws(BenchError) in
            let undod = try bench.startUndod("undod-start-empty", config: config, stateDirectory: empty)
            defer { undod.kill() }
            if try !undod.stop(toleratingEarlyTerm: true) { killedByTerm += 1 }
            return undod.startMilliseconds
        })
        row.summary = Summary(zip(withGroups, withNone).map { $0 - $1 })
        let fullMedian = Summary(withGroups).median, emptyMedian = Summary(withNone).median
        let back = restored ?? (0, 0)
        row.detail = "\(Report.format(fullMedian, digits: 1)) ms with \(bench.scale.storedGroups) groups stored, "
            + "\(Report.format(emptyMedian, digits: 1)) ms empty (\(bench.scale.startupRounds) rounds); "
            + "restored \(back.groups) groups on \(back.stacks) stacks"
            + (back.groups < bench.scale.storedGroups ? " — the store does not keep them yet" : "")
            + "; fill took \(Report.format(fillSeconds, digits: 1)) s"
            + (killedByTerm == 0 ? "" : "; \(killedByTerm) of \(2 * bench.scale.startupRounds) start-ups were ended by "
                + "SIGTERM's default action (the stop came before undod installed its handler)")
        row.values = [("full_ms", fullMedian), ("empty_ms", emptyMedian), ("stored_groups", Double(bench.scale.storedGroups)),
                      ("restored_groups", Double(back.groups))]
    }
}
