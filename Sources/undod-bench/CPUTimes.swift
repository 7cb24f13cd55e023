#if canImport(Glibc)
import Glibc
#endif

/// CPU time three processes spent, in nanoseconds.
struct CPUTimes {
    /// Nanoseconds of undod, the bus, and the bench.
    var undod: Int64 = 0, bus: Int64 = 0, bench: Int64 = 0

    /// The present totals of undod (`pid`), the bus and this process.
    static func now(undod pid: pid_t, bus: pid_t) -> CPUTimes {
        CPUTimes(undod: ProcFile.cpuNanoseconds(pid) ?? 0, bus: ProcFile.cpuNanoseconds(bus) ?? 0,
                 bench: ProcFile.cpuNanoseconds(getpid()) ?? 0)
    }

    /// The time spent between two readings.
    static func - (a: CPUTimes, b: CPUTimes) -> CPUTimes {
        CPUTimes(undod: a.undod - b.undod, bus: a.bus - b.bus, bench: a.bench - b.bench)
    }

    /// Adds time spent.
    static func += (a: inout CPUTimes, b: CPUTimes) {
        a = CPUTimes(undod: a.undod + b.undod, bus: a.bus + b.bus, bench: a.bench + b.bench)
    }

    /// Microseconds a call, as words.
    func perCall(_ calls: Int) -> String {
        let each = { (ns: Int64) in Report.format(Double(ns) / Double(max(1, calls)) / 1_000, digits: 1) }
        return "undod \(each(undod)), bus \(each(bus)), bench \(each(bench)) µs"
    }
}
