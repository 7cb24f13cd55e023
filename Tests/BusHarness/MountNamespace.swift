import Foundation

/// Whether tests may run undod in a mount namespace of its own (to give it
/// a small tmpfs or a read-only bind mount): that needs root and a kernel
/// or container that allows `unshare -m`.
public enum MountNamespace {
    /// True when this process is root and `unshare -m` works here.
    public static let isAvailable: Bool = {
        guard getuid() == 0 else { return false }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        probe.arguments = ["-m", "/bin/true"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard let child = try? ExitWatch(running: probe, waking: nil),
              child.waitBlocking(milliseconds: TestTime.milliseconds(10_000)) else { return false }
        return child.termination?.status == 0 && child.termination?.bySignal == false
    }()
}
