public import Foundation
public import Loop
import Rig

/// A sway of its own for one test: headless (`WLR_BACKENDS=headless`, the
/// pixman renderer, no input devices), run as the unprivileged user
/// `undodtest` (sway refuses root; the user is made when missing), with its
/// runtime directory in a fresh temporary folder. Applications reach it
/// through `environment`; `swaymsg` and `wtype` play the user's hand. Never
/// the user's session; everything is killed by `stop`, and the folder goes
/// when the instance does.
public final class TestSway {
    /// The user sway runs as.
    public static let user = DesktopRelease.user

    /// Whether a sway of `release` can run here: the host's swaymsg and
    /// wtype (the tests' hand), root (to run sway as another user), and sway
    /// itself on the host or a newer Debian's root (`DesktopRelease`).
    public static func isAvailable(on release: DesktopRelease) -> Bool {
        getuid() == 0 && ["/usr/bin/swaymsg", "/usr/bin/wtype", "/usr/bin/setpriv"]
            .allSatisfy(FileManager.default.isExecutableFile(atPath:))
            && (release.isHost ? FileManager.default.isExecutableFile(atPath: "/usr/bin/sway") : release.canRun)
    }

    /// The releases whose sway the suites run here.
    public static var releases: [DesktopRelease] { DesktopRelease.tested.filter(isAvailable(on:)) }

    /// Whose sway this is.
    public let release: DesktopRelease

    /// The runtime directory holding sway's sockets.
    public let directory: URL
    /// sway's IPC socket (`SWAYSOCK`); a restarted sway has a new one.
    public private(set) var socket = ""
    /// The Wayland display's socket, as a path.
    public private(set) var waylandDisplay = ""
    /// What a child needs to find this sway: its Wayland display and IPC
    /// socket, and no X display.
    public var environment: [String: String] {
        ["WAYLAND_DISPLAY": waylandDisplay, "SWAYSOCK": socket, "XDG_RUNTIME_DIR": directory.path, "DISPLAY": ""]
    }

    private var server: ExitWatch?

    /// Starts sway and waits (at most 20 s) until it has run its config's
    /// `exec`, by which time its sockets accept clients.
    public init(release: DesktopRelease = .host) throws {
        self.release = release
        directory = URL(fileURLWithPath: "/tmp/undod-sway-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        try DesktopRelease.makeUser()
        let owned = try runTool(["chown", Self.user, directory.path])
        guard owned.status == 0 else { throw HarnessError("cannot give \(directory.path) to \(Self.user): \(owned.errors)") }
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Kills sway (SIGKILL, as a crash would: a child of Foundation's
    /// `Process` starts with SIGTERM blocked) and starts it again in the
    /// same runtime directory; its IPC socket then names the new process.
    public func restart() throws {
        stop()
        try start()
    }

    /// Kills sway.
    public func stop() {
        guard let server else { return }
        server.kill()
        ChildReaper.forget(server.process.processIdentifier)
        self.server = nil
    }

    /// Runs `swaymsg` with `arguments` on this sway; throws when it fails.
    @discardableResult
    public func swaymsg(_ arguments: [String], loop: EventLoop) throws -> String {
        let result = try runTool(["swaymsg"] + arguments, loop: loop, environment: environment)
        guard result.status == 0 else {
            throw HarnessError("swaymsg \(arguments.joined(separator: " ")) failed: \(result.output)\(result.errors)")
        }
        return result.output
    }

    /// Focuses the view of process `pid`.
    public func focus(pid: Int32, loop: EventLoop) throws {
        try swaymsg(["[pid=\(pid)] focus"], loop: loop)
    }

    /// Types with `wtype` (its arguments: `-M ctrl -M alt z -m alt -m ctrl`).
    public func type(_ arguments: [String], loop: EventLoop) throws {
        let result = try runTool(["wtype"] + arguments, loop: loop, environment: environment)
        guard result.status == 0 else { throw HarnessError("wtype failed: \(result.errors)") }
    }

    private func start() throws {
        let ready = directory.appendingPathComponent("ready-\(UUID().uuidString.prefix(8))")
        guard mkfifo(ready.path, 0o666) == 0, chmod(ready.path, 0o666) == 0 else {
            throw HarnessError("cannot make the fifo \(ready.path)")
        }
        let config = directory.appendingPathComponent("config")
        try """
            output HEADLESS-1 resolution 1024x768
            xwayland disable
            exec sh -c 'echo "$SWAYSOCK $WAYLAND_DISPLAY" > \(ready.path)'
            """.write(to: config, atomically: false, encoding: .utf8)
        _ = chmod(config.path, 0o644)
        // O_NONBLOCK: opening the fifo does not wait for sway to open it.
        let readEnd = open(ready.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard readEnd >= 0 else { throw HarnessError("cannot open the fifo \(ready.path)") }
        defer { close(readEnd) }
        let command = ["/usr/bin/env", "-i", "XDG_RUNTIME_DIR=\(directory.path)", "HOME=\(directory.path)",
                       "WLR_BACKENDS=headless", "WLR_LIBINPUT_NO_DEVICES=1", "WLR_RENDERER=pixman",
                       "PATH=/usr/bin:/bin", "/usr/bin/sway", "-c", config.path]
        let launch = release.isHost
            ? ["/usr/bin/setpriv", "--reuid=\(Self.user)", "--regid=\(Self.user)", "--init-groups", "--"] + command
            : try release.command(command)
        let sway = Process()
        sway.executableURL = URL(fileURLWithPath: launch[0])
        sway.arguments = Array(launch.dropFirst())
        sway.standardOutput = FileHandle.nullDevice
        sway.standardError = FileHandle(forWritingAtPath: "/dev/null")
        if let log = ProcessInfo.processInfo.environment["UNDOD_SWAY_LOG"] {
            try Data().write(to: URL(fileURLWithPath: log))
            sway.standardError = FileHandle(forWritingAtPath: log)
            sway.arguments? += ["-d"]
        }
        let watch = try ExitWatch(running: sway, waking: nil)
        ChildReaper.watch(sway.processIdentifier)
        server = watch
        let line = LineReader.firstLine(from: readEnd, within: TestTime.milliseconds(20_000)).line ?? ""
        let parts = line.split(separator: " ").map(String.init)
        guard parts.count == 2 else {
            stop()
            throw HarnessError("sway did not start (no word from its config's exec).")
        }
        socket = parts[0]
        waylandDisplay = parts[1].hasPrefix("/") ? parts[1] : directory.appendingPathComponent(parts[1]).path
    }
}
