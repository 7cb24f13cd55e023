public import DBus
public import Foundation
public import Loop
import Rig

/// A desktop of its own for one test: an Xvfb server on a free display,
/// optionally openbox as the EWMH window manager and dunst as the
/// notification server (on the test's private bus), and xdotool as the
/// user's hand. Never the user's display; everything is killed by `stop`.
public final class TestDesktop {
    /// The display, e.g. `:7`.
    public let display: String
    /// What a child needs to find this desktop.
    public var environment: [String: String] {
        // XDG_CACHE_HOME: openbox writes its log there, which must not be the user's.
        ["DISPLAY": display, "XDG_CACHE_HOME": directory.appendingPathComponent("cache").path]
    }

    private let server: ExitWatch
    private var windowManager: ExitWatch?
    private var notifications: ExitWatch?
    private let directory: URL

    /// A display number no X server uses now (from 200 up, above those
    /// `-displayfd` hands out): for a test that starts one there later.
    public static func freeDisplay() -> Int {
        (200..<400).first { number in
            !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
                && !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock")
        } ?? 399
    }

    /// Starts Xvfb (on display `number`, else one it picks; and openbox,
    /// unless `windowManager` is false) and waits until the display, and
    /// the window manager, answer.
    public init(display number: Int? = nil, windowManager: Bool = true) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("undod-desktop-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let xvfb = Process()
        xvfb.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        // -displayfd: Xvfb picks a free display and prints its number once it accepts clients.
        xvfb.arguments = (number.map { [":\($0)"] } ?? [])
            + ["-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"]
        let output = Pipe()
        defer { closeHarnessDescriptors([output.fileHandleForReading]) }   // Xvfb prints its number once
        xvfb.standardOutput = output
        xvfb.standardError = FileHandle.nullDevice
        server = try ExitWatch(running: xvfb, waking: nil)
        ChildReaper.watch(xvfb.processIdentifier)
        guard let number = LineReader.firstLine(from: output.fileHandleForReading.fileDescriptor, within: 15_000,
                                                where: { !$0.isEmpty }).line,
              let value = Int(number.trimmingCharacters(in: .whitespaces)) else {
            Self.kill(server)
            throw HarnessError("Xvfb did not print its display number.")
        }
        display = ":\(value)"
        if windowManager { try startWindowManager() }
    }

    /// A folder of the desktop's own, `name`, made when missing and removed
    /// with the desktop: for what a test's applications write.
    public func scratch(_ name: String) -> URL {
        let folder = directory.appendingPathComponent(name)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    deinit { stop() }

    /// Starts openbox and waits (at most 15 s) until it answers as an EWMH
    /// window manager (`_NET_SUPPORTING_WM_CHECK` on the root).
    public func startWindowManager() throws {
        let spy = Process()
        // stdbuf: xprop's stdout is a pipe, which stdio would buffer past the line we wait for.
        spy.executableURL = URL(fileURLWithPath: "/usr/bin/stdbuf")
        // The whole root: xprop cannot spy on an atom that does not exist yet.
        spy.arguments = ["-oL", "xprop", "-display", display, "-root", "-spy"]
        let output = Pipe()
        spy.standardOutput = output
        spy.standardError = FileHandle.nullDevice
        let spyWatch = try ExitWatch(running: spy, waking: nil)
        ChildReaper.watch(spy.processIdentifier)
        defer {
            Self.kill(spyWatch)
            closeHarnessDescriptors([output.fileHandleForReading])
        }
        let manager = Process()
        manager.executableURL = URL(fileURLWithPath: "/usr/bin/openbox")
        manager.arguments = ["--sm-disable"]
        manager.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        manager.standardOutput = FileHandle.nullDevice
        manager.standardError = FileHandle.nullDevice
        windowManager = try ExitWatch(running: manager, waking: nil)
        ChildReaper.watch(manager.processIdentifier)
        var checked = false
        guard LineReader.firstLine(from: output.fileHandleForReading.fileDescriptor, within: 15_000, where: { line in
            if line.hasPrefix("_NET_SUPPORTING_WM_CHECK(WINDOW)") { checked = true }
            return checked && line.hasPrefix("_NET_SUPPORTED(ATOM)") && line.contains("_NET_ACTIVE_WINDOW")
        }).line != nil else {
            throw HarnessError("openbox did not start managing \(display).")
        }
    }

    /// Kills the window manager (SIGKILL, as a crash would: its root
    /// properties stay behind, stale). SIGTERM would not do: a child of
    /// Foundation's `Process` starts with it blocked.
    public func stopWindowManager() {
        if let windowManager { Self.kill(windowManager) }
        windowManager = nil
    }

    /// Starts dunst on `bus` and waits (at most 15 s) until it owns
    /// `org.freedesktop.Notifications`; `timeout` is how long it shows a
    /// notification that does not say.
    public func startNotifications(bus: TestBus, loop: EventLoop, watcher: Connection, timeout: Int = 10) throws {
        let config = directory.appendingPathComponent("dunstrc")
        try """
            [global]
                font = Monospace 8
                idle_threshold = 0
                history_length = 50
            [urgency_low]
                timeout = \(timeout)
                default_icon = ""
            [urgency_normal]
                timeout = \(timeout)
                default_icon = ""
            [urgency_critical]
                timeout = \(timeout)
                default_icon = ""
            """.write(to: config, atomically: false, encoding: .utf8)
        var owned = false
        let subscription = watcher.subscribe(.nameOwnerChanged(name: "org.freedesktop.Notifications")) { message in
            if let owner = message.arguments.last?.string, !owner.isEmpty { owned = true }
        }
        defer { watcher.unsubscribe(subscription) }
        _ = try watcher.callAndWait(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                    interface: "org.freedesktop.DBus.Peer", member: "Ping")
        let dunst = Process()
        dunst.executableURL = URL(fileURLWithPath: "/usr/bin/dunst")
        dunst.arguments = ["-config", config.path]
        dunst.environment = ProcessInfo.processInfo.environment
            .merging(environment.merging(["DBUS_SESSION_BUS_ADDRESS": bus.address]) { $1 }) { $1 }
        dunst.standardOutput = FileHandle.nullDevice
        dunst.standardError = FileHandle.nullDevice
        let exitWatch = try ExitWatch(running: dunst, waking: loop)
        ChildReaper.watch(dunst.processIdentifier)
        notifications = exitWatch
        guard loop.run(until: { owned || exitWatch.hasExited }, timeoutMilliseconds: TestTime.milliseconds(15_000)),
              owned else {
            throw HarnessError("dunst did not take org.freedesktop.Notifications.")
        }
    }

    /// Runs `xdotool` with `arguments` on this display, serving `loop`
    /// meanwhile; throws when it fails.
    @discardableResult
    public func xdotool(_ arguments: [String], loop: EventLoop? = nil) throws -> String {
        try tool(["xdotool"] + arguments, loop: loop)
    }

    /// Runs a tool on this display (and, with `bus`, on that bus).
    @discardableResult
    public func tool(_ arguments: [String], bus: TestBus? = nil, loop: EventLoop? = nil) throws -> String {
        var env = environment
        if let bus { env["DBUS_SESSION_BUS_ADDRESS"] = bus.address }
        let result = try runTool(arguments, loop: loop, environment: env, timeout: 20)
        guard result.status == 0 else {
            throw HarnessError("\(arguments.joined(separator: " ")) failed (\(result.status)): \(result.errors)")
        }
        return result.output
    }

    /// Makes `window` the active window and waits until it is.
    public func activate(_ window: Int, loop: EventLoop? = nil) throws {
        try xdotool(["windowactivate", "--sync", String(window)], loop: loop)
    }

    /// Presses and releases `keys` (xdotool's names: `ctrl+alt+z`).
    public func press(_ keys: String, loop: EventLoop? = nil) throws {
        try xdotool(["key", keys], loop: loop)
    }

    /// Kills the X server, as a crash or the end of a session would.
    public func killServer() {
        Self.kill(server)
    }

    /// Kills everything this desktop started.
    public func stop() {
        if let notifications { Self.kill(notifications) }
        if let windowManager { Self.kill(windowManager) }
        Self.kill(server)
        notifications = nil
        windowManager = nil
        try? FileManager.default.removeItem(at: directory)
    }

    private static func kill(_ child: ExitWatch) {
        child.kill()
        ChildReaper.forget(child.process.processIdentifier)
    }
}
