#if canImport(Glibc)
import Glibc
#endif
internal import CBench
import Loop
import SystemClock

/// A process the bench started: it dies with the bench (SIGKILL from the
/// kernel if the bench dies first, and from the guard if the bench is
/// interrupted or runs out of time), and is always reaped.
final class ChildProcess {
    /// The process id.
    let pid: pid_t
    /// What it is, for messages (`undod`, `dbus-daemon`).
    let name: String
    /// Its exit status (or 128 + signal) once it has ended.
    private(set) var exitCode: Int32?

    /// Starts `path` with `arguments`, stdout and stderr going to the given
    /// descriptors (nil: /dev/null).
    init(path: String, arguments: [String], name: String, stdout: Int32? = nil, stderr: Int32? = nil) throws(BenchError) {
        self.name = name
        guard access(path, X_OK) == 0 else {
            throw BenchError("\(path) is not an executable file; build it first (make bench does).")
        }
        // C strings that live until fork has copied them.
        let all = [path] + arguments
        var pointers: [UnsafeMutablePointer<CChar>?] = all.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        let started = pointers.withUnsafeBufferPointer { argv in
            cbench_spawn(path, argv.baseAddress, stdout ?? -1, stderr ?? -1)
        }
        guard started > 0 else {
            throw BenchError("Cannot start \(path): \(String(cString: strerror(errno))).")
        }
        pid = started
    }

    /// Whether it still runs (reaping it if it has ended).
    var isRunning: Bool {
        guard exitCode == nil else { return false }
        var code: Int32 = 0
        switch cbench_reap(pid, &code) {
        case 0: return true
        case 1: exitCode = code
        default: exitCode = -1
        }
        return false
    }

    /// Waits at most `milliseconds` for it to end; returns whether it has.
    @discardableResult
    func wait(milliseconds: Int) -> Bool {
        let deadline = SystemTime.monotonicNanoseconds + Int64(milliseconds) * 1_000_000
        while isRunning {
            if SystemTime.monotonicNanoseconds >= deadline { return false }
            usleep(2_000)
        }
        return true
    }

    /// Asks it to stop with SIGTERM, waits at most `milliseconds`, then
    /// SIGKILLs it. Returns whether it stopped on the first request.
    @discardableResult
    func stop(graceMilliseconds: Int = 10_000) -> Bool {
        guard isRunning else { return true }
        Glibc.kill(pid, SIGTERM)
        if wait(milliseconds: graceMilliseconds) { return true }
        Glibc.kill(pid, SIGKILL)
        wait(milliseconds: 5_000)
        return false
    }

    /// SIGKILLs it and reaps it.
    func kill() {
        guard isRunning else { return }
        Glibc.kill(pid, SIGKILL)
        wait(milliseconds: 5_000)
    }

    deinit { kill() }
}

/// The guard of the whole run: children die and the bench exits with 3 on
/// SIGINT, SIGTERM, SIGHUP, or after `seconds`.
enum RunGuard {
    /// Installs the guard with a time limit of `seconds` (0: none).
    static func install(seconds: Int) {
        cbench_install_guard(UInt32(clamping: seconds))
    }

    /// Kills every child still running (the normal way out does this too).
    static func killAll() {
        cbench_kill_all()
    }

    /// A close-on-exec pipe: (read end, write end).
    static func pipe() throws(BenchError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard cbench_pipe(&fds) == 0 else { throw BenchError("Cannot make a pipe: \(String(cString: strerror(errno))).") }
        return (fds[0], fds[1])
    }
}

/// Which CPUs processes may run on. The latency rows put the bench, the bus
/// and undod on one CPU: every hop is then a switch on that CPU, and a round
/// trip measures the work along the path rather than where the scheduler
/// placed three processes on few cores and how long idle cores take to wake
/// (on a 2-vCPU VM a Ping takes ~42 µs or ~85 µs depending on that alone).
enum CPUPin {
    /// The CPU the latency rows use: the highest-numbered one the bench may
    /// run on; nil when it cannot tell.
    static var chosen: Int32? {
        let cpu = cbench_last_allowed_cpu()
        return cpu >= 0 ? cpu : nil
    }

    /// Keeps `pids` (0 = the bench) on `cpu`; nil: on every CPU the bench
    /// started with. Returns whether every one moved.
    @discardableResult
    static func set(_ pids: [pid_t], cpu: Int32?) -> Bool {
        pids.allSatisfy { cbench_pin($0, cpu ?? -1) == 0 }
    }
}
