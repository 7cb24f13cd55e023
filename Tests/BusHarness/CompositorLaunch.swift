public import Foundation
public import Loop

/// How the KWin and GNOME Shell harnesses start their compositor: in an
/// environment of exactly `environment` (`env -i`), its stderr kept (in the
/// file `logVariable` names, if set) to be said if it fails, and waited for
/// (at most 90 s) until it owns `busName` on the bus at `busAddress`: a
/// Shell or KWin starting costs a core, and several at once beside the rest
/// of the suite (a newer Debian's from a root not yet in the page cache the
/// slowest) took more than 30 s. (A lock making them start one at a time
/// starved the test runner's few threads: the one waiting for its tool
/// never heard it end.)
enum CompositorLaunch {

    /// Starts `command` and waits for it to take `busName`; its watch.
    /// `what` names it in the error when it does not.
    static func start(_ what: String, command: [String], environment: [String], busName: String,
                      busAddress: String, logVariable: String, loop: EventLoop) throws -> ExitWatch {
        let compositor = Process()
        compositor.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compositor.arguments = ["-i", "PATH=/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS=\(busAddress)"]
            + environment + command
        compositor.standardOutput = FileHandle.nullDevice
        // Its stderr goes to a file: named by `logVariable`, or one of its
        // own, whose end is said when it does not start (and which goes
        // once it has, the compositor writing on into an unlinked file).
        let named = ProcessInfo.processInfo.environment[logVariable]
        let log = named ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("undod-compositor-\(UUID().uuidString.prefix(8)).log").path
        try Data().write(to: URL(fileURLWithPath: log))
        let logHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        defer { closeHarnessDescriptors([logHandle]) }
        defer { if named == nil { try? FileManager.default.removeItem(atPath: log) } }
        compositor.standardError = logHandle
        let watch = try ExitWatch(running: compositor, waking: nil)
        ChildReaper.watch(compositor.processIdentifier)
        let waited = try runTool(["gdbus", "wait", "--session", "--timeout", "\(TestTime.milliseconds(90_000) / 1_000)",
                                  busName], loop: loop, environment: ["DBUS_SESSION_BUS_ADDRESS": busAddress],
                                 timeout: 150)
        guard waited.status == 0, !watch.hasExited else {
            let ended = watch.termination.map { $0.bySignal ? "killed by signal \($0.status)" : "exited \($0.status)" }
            stop(watch)
            let said = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
                .split(separator: "\n").suffix(12).joined(separator: "\n")
            throw HarnessError("\(what) did not start (it never took \(busName)\(ended.map { "; it \($0)" } ?? "")): "
                + "\(waited.errors)\nits last words:\n\(said)")
        }
        return watch
    }

    /// Kills the compositor (SIGKILL, as a crash would).
    static func stop(_ watch: ExitWatch) {
        watch.kill()
        ChildReaper.forget(watch.process.processIdentifier)
    }

    /// Kills (SIGKILL) every process left running with `HOME` set to
    /// `home`, the compositor's own (undod and the test's apps have the
    /// test's): what a compositor started and left behind (GNOME Shell's
    /// `ibus-daemon`, which ignores SIGTERM, was found piling up over a full
    /// run, and a Shell started after it took it over).
    static func killLeftovers(home: String) {
        let marker = Array("HOME=\(home)".utf8) + [0]
        let own = getpid()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(name), pid != own,
                  let environment = FileManager.default.contents(atPath: "/proc/\(name)/environ") else { continue }
            let bytes = [UInt8](environment)
            let found = bytes.split(separator: 0, omittingEmptySubsequences: true)
                .contains { Array($0) + [0] == marker }
            if found { kill(pid, SIGKILL) }
        }
    }
}
