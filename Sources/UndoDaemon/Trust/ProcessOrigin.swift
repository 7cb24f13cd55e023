#if canImport(Glibc)
import Glibc
#endif
import Caretaker

/// Reads a process's origin from `/proc` (the Trust section of
/// `Docs/PROTOCOL.md`): its Flatpak application id or Snap label where it
/// runs in a sandbox, else its executable (path and file) and, for an
/// interpreter, the script it runs. A process that started after the call
/// it is read for (its pid reused) has none, nor one that changes while it
/// is read. Small files, read without blocking.
enum ProcessOrigin {
    /// The origin of process `pid`, which the bus labelled `securityLabel`
    /// (`LinuxSecurityLabel`, empty where the bus has none), if it started
    /// no later than `startedBy` (clock ticks since boot, as `/proc`
    /// counts them); nil where it cannot be told.
    static func of(pid: UInt32, securityLabel: [UInt8], startedBy: UInt64) -> StackOrigin? {
        guard pid > 0, let started = LocalProcess.startTime(pid), started <= startedBy else { return nil }
        let origin = read(pid, securityLabel: securityLabel)
        // The same process throughout: its start time unchanged.
        guard LocalProcess.startTime(pid) == started else { return nil }
        return origin
    }

    /// The origin of the process `pidfd` refers to (the bus's `ProcessFD`),
    /// which the bus labelled `securityLabel`: read under the pid the
    /// descriptor names in our own pid namespace, and kept only if the
    /// process is still alive once read (a pid is reused only after its
    /// process died); nil where it cannot be told.
    static func of(pidfd: Int32, securityLabel: [UInt8]) -> StackOrigin? {
        guard let pid = pid(of: pidfd), pid > 0 else { return nil }
        let origin = read(UInt32(pid), securityLabel: securityLabel)
        guard Self.pid(of: pidfd) == pid else { return nil }
        return origin
    }

    /// The pid `pidfd` refers to in our pid namespace (`Pid:` of its
    /// fdinfo): -1 once the process has died, 0 where it is not in our
    /// namespace; nil where it cannot be read.
    private static func pid(of pidfd: Int32) -> Int64? {
        guard let bytes = LocalProcess.read("/proc/self/fdinfo/\(pidfd)", limit: 4096) else { return nil }
        let line = bytes.split(separator: UInt8(ascii: "\n")).first { $0.starts(with: Array("Pid:".utf8)) }
        return line.flatMap { Int64(String(decoding: $0.dropFirst(4).filter { $0 != 32 && $0 != 9 }, as: UTF8.self)) }
    }

    /// Now, in clock ticks since boot (what `/proc/PID/stat` counts a
    /// process's start in), rounded up.
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_BOOTTIME, &spec)
        let hertz = UInt64(max(sysconf(Int32(_SC_CLK_TCK)), 1))
        return UInt64(spec.tv_sec) * hertz + (UInt64(spec.tv_nsec) * hertz + 999_999_999) / 1_000_000_000
    }

    private static func read(_ pid: UInt32, securityLabel: [UInt8]) -> StackOrigin? {
        if let app = LocalProcess.sandboxAppID(pid) { return StackOrigin(kind: .flatpak, program: app) }
        let label = String(decoding: securityLabel.prefix { $0 != 0 }, as: UTF8.self)
        if label.hasPrefix("snap.") {
            return StackOrigin(kind: .snap, program: String(label.prefix { $0 != " " }))
        }
        guard let program = LocalProcess.executable(pid), let programFile = fileID("/proc/\(pid)/exe") else { return nil }
        guard let interpreter = Interpreter(executable: program) else {
            return StackOrigin(kind: .executable, program: program, programFile: programFile)
        }
        let arguments = commandLine(pid)
        switch interpreter.script(in: arguments.dropFirst()) {
        case .none:
            return StackOrigin(kind: .executable, program: program, programFile: programFile)
        case .inline(let how):
            return StackOrigin(kind: .executable, program: program, programFile: programFile, script: how)
        case .module(let name):
            return StackOrigin(kind: .executable, program: program, programFile: programFile, script: "module " + name)
        case .file(let path):
            let seen = path.hasPrefix("/") ? "/proc/\(pid)/root" + path : "/proc/\(pid)/cwd/" + path
            let absolute = path.hasPrefix("/") ? path : (LocalProcess.link("/proc/\(pid)/cwd") ?? "") + "/" + path
            return StackOrigin(kind: .executable, program: program, programFile: programFile,
                               script: Self.normalized(absolute), scriptFile: fileID(seen) ?? "")
        }
    }

    /// `/a/./b//c` → `/a/b/c` (no `..` resolved: a path is compared as written).
    private static func normalized(_ path: String) -> String {
        "/" + path.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
    }

    /// The arguments the process was started with.
    private static func commandLine(_ pid: UInt32) -> [String] {
        guard let bytes = LocalProcess.read("/proc/\(pid)/cmdline", limit: 64 << 10) else { return [] }
        return bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast()
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// `device:inode` of the file at `path` (following links).
    private static func fileID(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return "\(info.st_dev):\(info.st_ino)"
    }
}
