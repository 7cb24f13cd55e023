import Dispatch
import Locking
import Loop
import SystemClock
import Undo1
import UndoKit

/// Row 7: the price an app pays for hosting its history outside the
/// process — what a push costs the app's own thread with UndoKit, against
/// keeping the closure in a local array (what an in-process undo manager does).
struct UndoKitRow {
    /// The run this measures in.
    let bench: Bench

    /// Row 7, not yet measured: reported, without a target.
    static func row7() -> Row {
        Row(number: 7, key: "undokit_push", title: "UndoKit push, the app's thread", unit: "µs", digits: 2, target: nil)
    }

    /// Times `kitPushes` `pushLater` calls (the app's thread only queues the
    /// push; UndoKit's bus thread sends it) one by one, the same number of
    /// appends of a closure to a local array, and 1,000 awaited pushes
    /// (the round trip an app waits for when it does wait).
    func measureUndoKitPush(_ row: inout Row) throws(BenchError) {
        let undod = try bench.startUndod("undod-kit", config: GroupRows.keepEverything(persist: false),
                                   stateDirectory: try bench.scratch.directory("state-kit"))
        defer { undod.kill() }
        let client: UndoClient
        do { client = try UndoClient(address: bench.bus.address) } catch {
            throw BenchError("UndoKit could not connect: \(error.message)")
        }
        defer { client.close() }
        let stack = try Self.blocking("UndoKit's Register") { () async throws(UndoKitError) in
            try await client.register(appId: "bench.undokit", options: StackOptions(persist: false))
        }
        let count = bench.scale.kitPushes
        let payload = [UInt8](repeating: 7, count: 64)
        let action = UndoAction(undo: payload, redo: payload)

        var closures: [() -> Void] = []
        closures.reserveCapacity(count)
        var local: [Int64] = []
        local.reserveCapacity(count)
        for index in 0..<count {
            let start = SystemTime.monotonicNanoseconds
            closures.append { _ = index }
            local.append(SystemTime.monotonicNanoseconds - start)
        }

        let answered = Lock((done: 0, failed: 0, failure: String?.none))
        var queued: [Int64] = []
        queued.reserveCapacity(count)
        for _ in 0..<count {
            let start = SystemTime.monotonicNanoseconds
            stack.pushLater("Typing", actions: [action]) { result in
                answered.withLock { state in
                    state.done += 1
                    guard case .failure(let error) = result else { return }
                    state.failed += 1
                    if state.failure == nil { state.failure = error.description }
                }
            }
            queued.append(SystemTime.monotonicNanoseconds - start)
        }
        try bench.loop.wait(for: "\(count) UndoKit pushes to be answered", timeoutMilliseconds: 60_000, child: undod.process) {
            answered.withLock { $0.done == count }
        }
        let (failed, failure) = answered.withLock { ($0.failed, $0.failure) }
        if let failure {
            throw BenchError("An UndoKit push failed: \(failure) (\(failed) of \(count) failed).")
        }

        let trips = try Self.blocking("1,000 awaited UndoKit pushes") { () async throws(UndoKitError) -> [Int64] in
            var times: [Int64] = []
            for _ in 0..<1_000 {
                let start = SystemTime.monotonicNanoseconds
                try await stack.push("Typing", actions: [action])
                times.append(SystemTime.monotonicNanoseconds - start)
            }
            return times
        }
        let perPush = Summary(queued.map { Double($0) / 1_000 })
        let append = Summary.medianMicroseconds(local)
        let roundTrip = Summary.medianMicroseconds(trips)
        row.summary = perPush
        row.detail = "pushLater (queues the push, returns) \(Report.format(perPush.median, digits: 2)) µs median over "
            + "\(count); a closure appended to a local array \(Report.format(append, digits: 3)) µs; "
            + "an awaited push (its round trip) \(Report.format(roundTrip, digits: 1)) µs"
        row.values = [("push_later_us", perPush.median), ("local_append_us", append), ("awaited_push_us", roundTrip)]
    }

    /// Runs `body` in a task and waits for it on this thread (the bench is
    /// synchronous; UndoKit's own thread does the bus work meanwhile).
    static func blocking<T: Sendable>(_ what: String,
                                      _ body: @escaping @Sendable () async throws(UndoKitError) -> T) throws(BenchError) -> T {
        let done = DispatchSemaphore(value: 0)
        let result = Lock<Result<T, UndoKitError>?>(nil)
        Task {
            do throws(UndoKitError) {
                let value = try await body()
                result.withLock { $0 = .success(value) }
            } catch {
                result.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        guard done.wait(timeout: .now() + 60) == .success, let outcome = result.withLock({ $0 }) else {
            throw BenchError("\(what) did not finish within 60 s.")
        }
        switch outcome {
        case .success(let value): return value
        case .failure(let error): throw BenchError("\(what) failed: \(error.message)")
        }
    }
}
