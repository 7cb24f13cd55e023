public import Foundation

/// System calls made to fail, or to kill the process that makes them, by
/// strace's fault injection (`-e inject=`), and only those that touch one
/// file (`-P`): a real undod meets a real failure at a chosen place, with
/// no hook in its code. (Without `--seccomp-bpf`, which would stop only
/// the calls named but, in strace 6.1, never delivers an injected signal.)
public enum FaultInjection {
    /// True when strace is installed and may trace a child here (a
    /// container may forbid ptrace).
    public static let isAvailable: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else { return false }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
        probe.arguments = ["-f", "-qq", "-o", "/dev/null", "-e", "trace=getpid",
                           "-e", "inject=getpid:retval=1", "/bin/true"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard let child = try? ExitWatch(running: probe, waking: nil),
              child.waitBlocking(milliseconds: TestTime.milliseconds(10_000)) else { return false }
        return child.termination?.status == 0 && child.termination?.bySignal == false
    }()

    /// A `DaemonProcess` wrapper that runs undod under strace with each of
    /// `injections` (`SYSCALL:error=EIO`, `SYSCALL:signal=KILL`, with
    /// `:when=N` for the Nth call) on the system calls that touch `path`
    /// (`@STATE@` in it stands for undod's state directory).
    public static func wrapper(touching path: String, _ injections: [String]) -> [String] {
        let calls = injections.map { $0.prefix { $0 != ":" } }
        return ["/usr/bin/strace", "-f", "-qq", "-o", "/dev/null", "-P", path,
                "-e", "trace=" + Set(calls).sorted().joined(separator: ",")]
            + injections.flatMap { ["-e", "inject=" + $0] }
    }
}
