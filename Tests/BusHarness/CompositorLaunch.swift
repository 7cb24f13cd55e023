public import Foundation
public import Loop

/// How the KWin and GNOME Shell harnesses start their compositor: in an
/// environment of exactly `environment` (`env -i`), its output discarded
/// unless `logVariable` names a file to write its stderr to, and waited for
/// (at most 30 s) until it owns `busName` on the bus at `busAddress`.
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
        compositor.standardError = FileHandle.nullDevice
        if let log = ProcessInfo.processInfo.environment[logVariable] {
            FileManager.default.createFile(atPath: log, contents: nil)
            compositor.standardError = FileHandle(forWritingAtPath: log)
        }
        let watch = try ExitWatch(running: compositor, waking: nil)
        ChildReaper.watch(compositor.processIdentifier)
        let waited = try runTool(["gdbus", "wait", "--session", "--timeout", "\(TestTime.milliseconds(30_000) / 1_000)",
                                  busName], loop: loop, environment: ["DBUS_SESSION_BUS_ADDRESS": busAddress],
                                 timeout: 60)
        guard waited.status == 0, !watch.hasExited else {
            stop(watch)
            throw HarnessError("\(what) did not start (it never took \(busName)): \(waited.errors)")
        }
        return watch
    }

    /// Kills the compositor (SIGKILL, as a crash would).
    static func stop(_ watch: ExitWatch) {
        watch.kill()
        ChildReaper.forget(watch.process.processIdentifier)
    }
}
