import BusHarness
import Foundation
import Testing

/// undod under a fuzzer of our own (`Fuzzer`): `make test` makes a few
/// thousand calls with a fixed seed; `make fuzz N=100000 SEED=…` as many as
/// asked, with the seed printed for any failure.
@Suite struct FuzzTests {
    /// The run's budget: undod's RSS must stay within it plus 80 MiB.
    static let budget = 64 << 20

    @Test func undodAnswersEveryFuzzedCallAndStaysHealthy() throws {
        let environment = ProcessInfo.processInfo.environment
        let calls = environment["UNDOD_FUZZ_CALLS"].flatMap(Int.init) ?? 2_000
        let seed = environment["UNDOD_FUZZ_SEED"].flatMap(UInt64.init) ?? 20_261_130
        let f = try DaemonFixture(config: """
            [limits]
            max_total_bytes = 64MiB
            stacks_per_client = 64
            [apply]
            timeout_ms = 300
            """)
        let fuzzer = try Fuzzer(f: f, seed: seed, budgetBytes: Self.budget)
        do {
            try fuzzer.run(calls: calls)
        } catch {
            Issue.record("\(error)")
        }
        print("fuzz: seed \(seed): \(fuzzer.figures)")
        #expect(f.daemon.process.isRunning)
    }
}
