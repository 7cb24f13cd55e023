#if canImport(Glibc)
import Glibc
import SystemCalls
#endif
import DBus
import Loop
import SystemClock
import Undo1

/// One run of the built `undod` on the private bus, with its own config and
/// state directory, started the way a user would start it.
final class UndodInstance {
    /// The process.
    let process: ChildProcess
    /// Its unique name on the bus (where Pings go).
    let uniqueName: String
    /// The name it owns, where the bench's calls go: `org.undod.Undo1`,
    /// or the floor service's beside undod (`FloorService.benchName`).
    let busName: String
    /// Milliseconds from starting the process to seeing it own
    /// `org.undod.Undo1` (NameOwnerChanged).
    let startMilliseconds: Double
    /// Where its stderr goes.
    let logPath: String
    private let watcher: Connection

    /// Starts undod with `config` on `stateDirectory` and waits (at most
    /// 20 s) until it owns its name. The watcher must be on the same bus
    /// and loop; it subscribes before the process starts, so the moment of
    /// ownership is never missed.
    convenience init(executable: String, address: String, watcher: Connection, scratch: Scratch, label: String,
                     config: String, stateDirectory: String) throws(BenchError) {
        let configPath = try scratch.write("\(label).conf", config)
        try self.init(executable: executable,
                      arguments: ["--address", address, "--config", configPath, "--state-dir", stateDirectory],
                      watcher: watcher, scratch: scratch, label: label, name: "undod (\(label))",
                      owning: Undo1.busName)
    }

    /// Starts this bench as the floor service (`--floor-service`, see
    /// `FloorService`) beside undod on the bus at `address`, and waits
    /// until it owns `FloorService.benchName`.
    convenience init(floorServiceOn address: String, watcher: Connection, scratch: Scratch) throws(BenchError) {
        try self.init(executable: ProcFile.executable,
                      arguments: ["--floor-service", address, "--floor-name", FloorService.benchName],
                      watcher: watcher, scratch: scratch, label: "floor-service", name: "the floor service",
                      owning: FloorService.benchName)
    }

    /// Starts the shell's agent (`undod-files --agent` at `path`) on the bus
    /// at `address` with `environment` (its home), and waits until it owns
    /// `org.undod.Files1`, as D-Bus activation would start it.
    convenience init(filesAgent path: String, address: String, environment: [String: String], watcher: Connection,
                     scratch: Scratch) throws(BenchError) {
        let variables = (["DBUS_SESSION_BUS_ADDRESS": address].merging(environment) { $1 })
            .sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        try self.init(executable: "/usr/bin/env", arguments: variables + [path, "--agent"], watcher: watcher,
                      scratch: scratch, label: "undod-files", name: "undod-files --agent", owning: "org.undod.Files1")
    }

    /// Starts `executable` with `arguments` and waits (at most 20 s) until
    /// it owns `busName`.
    private init(executable: String, arguments: [String], watcher: Connection, scratch: Scratch, label: String,
                 name: String, owning busName: String) throws(BenchError) {
        self.busName = busName
        let log = try scratch.logFile("\(label).log")
        defer { close(log.fd) }
        logPath = log.path
        self.watcher = watcher

        var owner: String?
        var ownedAt: Int64 = 0
        let subscription = watcher.subscribe(.nameOwnerChanged(name: busName)) { message in
            guard let newOwner = message.arguments.last?.string, !newOwner.isEmpty else { return }
            owner = newOwner
            ownedAt = SystemTime.monotonicNanoseconds
        }
        defer { watcher.unsubscribe(subscription) }
        // The reply to a Ping of the bus comes after the bus has read AddMatch.
        _ = try CallRunner.once(watcher, try Calls.pingBus(), what: "a Ping of the bus")

        let start = SystemTime.monotonicNanoseconds
        process = try ChildProcess(path: executable, arguments: arguments, name: name, stderr: log.fd)
        do {
            try watcher.loop.wait(for: "\(name) to own \(busName)", timeoutMilliseconds: 20_000,
                                  child: process) {
                owner != nil
            }
        } catch {
            process.kill()
            let tail = Scratch.tail(of: log.path)
            throw BenchError("\(error.description)\(tail.isEmpty ? "" : " Its log ends: \(tail)")")
        }
        uniqueName = owner ?? ""
        startMilliseconds = Double(ownedAt - start) / 1e6
    }

    /// Its resident set size (`VmRSS` in /proc/PID/status), in bytes.
    func residentBytes() throws(BenchError) -> Int {
        let path = "/proc/\(process.pid)/status"
        guard let text = ProcFile.read(path) else { throw BenchError("Cannot read \(path).") }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, let kib = Int(fields[1]) { return kib * 1024 }
        }
        throw BenchError("\(path) has no VmRSS line.")
    }

    /// Stops it with SIGTERM (it flushes and exits) and waits at most
    /// `graceMilliseconds`; then SIGKILL. Throws unless it exited with 0 in
    /// time — or, when `toleratingEarlyTerm`, was ended by SIGTERM's default
    /// action (returns false then): undod installs its SIGTERM handler only
    /// after RequestName, so a stop just after it took the name can land in
    /// that window.
    @discardableResult
    func stop(graceMilliseconds: Int = 10_000, toleratingEarlyTerm: Bool = false) throws(BenchError) -> Bool {
        guard process.isRunning else {
            throw BenchError("\(process.name) had already exited (status \(process.exitCode ?? -1)): \(Scratch.tail(of: logPath))")
        }
        // undod owns its name a moment before it handles SIGTERM (it installs
        // its signal handlers after RequestName): a Ping answered by its loop
        // shows that moment has passed.
        _ = try CallRunner.once(watcher, try Calls.ping(uniqueName), what: "a Ping of undod before stopping it",
                                child: process)
        guard process.stop(graceMilliseconds: graceMilliseconds) else {
            throw BenchError("\(process.name) did not stop within \(graceMilliseconds) ms of SIGTERM; killed it.")
        }
        if toleratingEarlyTerm, process.exitCode == 128 + SIGTERM { return false }
        guard process.exitCode == 0 else {
            throw BenchError("\(process.name) exited with status \(process.exitCode ?? -1) on SIGTERM: \(Scratch.tail(of: logPath))")
        }
        return true
    }

    /// Kills it if it still runs.
    func kill() { process.kill() }
}

/// Small text files of /proc.
enum ProcFile {
    /// Nanoseconds the main thread of `pid` has run on a CPU
    /// (/proc/PID/schedstat), or nil. undod, dbus-daemon and the bench each
    /// do all their work on one thread.
    static func cpuNanoseconds(_ pid: pid_t) -> Int64? {
        guard let text = read("/proc/\(pid)/schedstat"),
              let first = text.split(separator: " ").first else { return nil }
        return Int64(first)
    }

    /// The path of this process's own executable (/proc/self/exe).
    static var executable: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The whole file (at most 64 KiB), or nil.
    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65_536 {
            guard case .success(let count) = buffer.withUnsafeMutableBytes({ SystemCall.read(fd, into: $0) }),
                  count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
