import DBus
import Loop
import SystemClock

extension EventLoop {
    /// Runs turns until `condition` holds. Throws when `timeoutMilliseconds`
    /// pass first, or when `child` ends meanwhile (it wakes at least every
    /// 50 ms to look), naming `what` it waited for.
    func wait(for what: String, timeoutMilliseconds: Int, child: ChildProcess? = nil,
              until condition: () -> Bool) throws(BenchError) {
        let deadline = SystemTime.monotonicNanoseconds + Int64(timeoutMilliseconds) * 1_000_000
        while !condition() {
            if let child, !child.isRunning {
                throw BenchError("\(child.name) exited (status \(child.exitCode ?? -1)) while the bench waited for \(what).")
            }
            let left = Int((deadline - SystemTime.monotonicNanoseconds) / 1_000_000)
            guard left > 0 else {
                throw BenchError("Gave up waiting \(timeoutMilliseconds) ms for \(what).")
            }
            runTurn(maxWaitMilliseconds: min(50, left))
        }
    }
}
