import BusHarness
import DBus
import Foundation
import Loop
import Testing

/// A test's own desktop (Xvfb, openbox, optionally dunst) with a private bus
/// and an undod on both, and applications as separate processes
/// (`Tests/Clients/x11_app.py`), since the `x11` strategy tells
/// applications apart by the process that owns the active window.
final class DesktopFixture {
    let desktop: TestDesktop
    let daemon: DaemonFixture
    /// What undod asks the notification server (dunst) to show, where one runs.
    let notifications: NotificationMonitor?
    private var apps: [ScriptedProcess] = []

    var loop: EventLoop { daemon.loop }
    var bus: TestBus { daemon.bus }

    /// The desktop (with openbox unless `windowManager` is false), then undod with `config`
    /// and the desktop's environment, to which `environment` adds (`XDG_CURRENT_DESKTOP`, say),
    /// on a bus that activates what `services` holds.
    init(config: String = "", windowManager: Bool = true, notifications: Bool = false,
         notificationTimeout: Int = 10, desktop: TestDesktop? = nil, environment: [String: String] = [:],
         services: URL? = nil) throws {
        let desktop = try desktop ?? TestDesktop(windowManager: windowManager)
        let daemon = try DaemonFixture(config: config, environment: desktop.environment.merging(environment) { $1 },
                                       services: services)
        if notifications {
            try desktop.startNotifications(bus: daemon.bus, loop: daemon.loop, watcher: daemon.watcher,
                                           timeout: notificationTimeout)
            self.notifications = try NotificationMonitor(address: daemon.bus.address, loop: daemon.loop)
        } else {
            self.notifications = nil
        }
        self.desktop = desktop
        self.daemon = daemon
    }

    deinit {
        for app in apps { app.stop() }
        desktop.stop()
    }

    /// The repository's `Tests/Clients/` script `name`.
    static func client(_ name: String) -> String {
        Repository.client(name)
    }

    /// A new application process on the desktop (and, with `bus`, on the bus).
    func app(bus: Bool = true) throws -> ScriptedProcess {
        var arguments = ["/usr/bin/python3", Self.client("x11_app.py"), "--display", desktop.display]
        if bus { arguments += ["--bus", daemon.bus.address] }
        let app = try ScriptedProcess(arguments, loop: loop)
        apps.append(app)
        try app.next(event: "ready")
        return app
    }

    /// The GTK example a new user tries the shake on (`Examples/notes.py`,
    /// tracing what it does), keeping its notes in `data` (its
    /// `XDG_DATA_HOME`), on `file` where given.
    func notesExample(data: URL, file: String? = nil) throws -> ScriptedProcess {
        try ScriptedProcess(
            ["/usr/bin/python3", Repository.root.appendingPathComponent("Examples/notes.py").path,
             "--address", daemon.bus.address, "--trace"] + (file.map { ["--file", $0] } ?? []),
            environment: desktop.environment.merging(["NO_AT_BRIDGE": "1", "GSETTINGS_BACKEND": "memory",
                                                      "XDG_DATA_HOME": data.path]) { $1 },
            loop: loop)
    }

    /// An application with one window titled `title` and a stack for
    /// `appId`, having pushed `pushes` groups named "Edit 1" …; returns
    /// the process, its window and its stack.
    func app(_ appId: String, title: String, pushes: Int = 0,
             options: [String: Any] = [:]) throws -> (process: ScriptedProcess, window: Int, stack: String) {
        let process = try app()
        let window = try process.command(["cmd": "window", "name": "main", "title": title])["xid"] as? Int ?? 0
        var all = options
        all["title"] = title
        let stack = try process.command(["cmd": "register", "app_id": appId, "options": all])["path"] as? String ?? ""
        for index in 0..<pushes {
            try process.command(["cmd": "push", "name": "Edit \(index + 1)", "undo": "u\(index + 1)", "redo": "r\(index + 1)"])
        }
        return (process, window, stack)
    }

    /// The manager's `FocusedStack`, read from outside.
    func focusedStack() throws -> String {
        try daemon.managerProperty("FocusedStack")?.string ?? ""
    }

    /// Waits until `FocusedStack` is `path` (at most 10 s), by its
    /// PropertiesChanged: focus follows the X server's events, which reach
    /// undod on their own time.
    @discardableResult
    func waitForFocus(_ path: String) throws -> Bool {
        var announced: String?
        let subscription = daemon.watcher.subscribe(SignalMatch(
            path: "/org/undod/Undo1", interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged")) {
            message in
            if let value = message.arguments.dropFirst().first?.stringDictionary?["FocusedStack"]?.string {
                announced = value
            }
        }
        defer { daemon.watcher.unsubscribe(subscription) }
        try daemon.ping()
        if try focusedStack() == path, announced == nil || announced == path { return true }
        return daemon.wait { announced == path }
    }

    /// Waits (at most `timeout` ms) until at least `count` lines of undod's
    /// log carry `key` (each holding `value`, when given).
    func waitForLogKey(_ key: String, holding value: String? = nil, count: Int = 1, timeout: Int = 10_000) -> Bool {
        daemon.waitForLogKey(key, holding: value, count: count, timeout: timeout)
    }

    /// How many lines of undod's log carry `key` (holding `value`, when given).
    func logKeyCount(_ key: String, holding value: String? = nil) -> Int {
        daemon.daemon.logKeyCount(key, holding: value)
    }

    /// Waits (at most `timeout` ms) until the notification server has shown
    /// a notification with `summary` at least `count` times.
    func waitForNotification(_ summary: String, count: Int = 1, timeout: Int = 10_000) -> Bool {
        guard let notifications else { return false }
        return notifications.wait(loop: loop, timeout: timeout) {
            notifications.shown.filter { $0 == summary }.count >= count
        }
    }
}
