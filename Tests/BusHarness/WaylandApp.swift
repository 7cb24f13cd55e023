public import DBus
public import Foundation
public import Loop

/// An application in a process of its own (`Tests/Clients/x11_app.py`) with
/// a GTK window on a Wayland compositor's display and, with an app id, a
/// stack that pushed `pushes` groups ("Edit 1" …, "u1" … to undo): what the
/// sway, KWin and GNOME Shell tests put in front of the compositor.
public struct WaylandApp {
    /// The process, driven by its JSON lines.
    public let process: ScriptedProcess
    /// Its process id, as the compositor reports it.
    public let pid: Int32
    /// Its stack's path, or "" for an app without one.
    public let stack: String

    /// Starts the app on `bus` with `environment` (the compositor's display),
    /// shows a window titled `title` (giving itself `windowAppId` as its app
    /// id when set: a test sets another app's to try a spoof), calls
    /// `shown` with its pid once the window is up (a test may wait there for
    /// the compositor to map it), then registers `appId` and pushes.
    public init(bus: TestBus, environment: [String: String], loop: EventLoop, appId: String?, title: String,
                pushes: Int = 0, windowAppId: String? = nil, shown: (Int32) throws -> Void = { _ in }) throws {
        process = try ScriptedProcess(["/usr/bin/python3", Repository.client("x11_app.py"), "--bus", bus.address],
                                      environment: environment, loop: loop)
        let ready = try process.next(event: "ready")
        pid = Int32(ready["pid"] as? Int ?? 0)
        var window: [String: Any] = ["cmd": "wl_window", "title": title]
        if let windowAppId { window["app_id"] = windowAppId }
        try process.command(window)
        try shown(pid)
        guard let appId else {
            stack = ""
            return
        }
        stack = try process.command(["cmd": "register", "app_id": appId, "options": ["title": title]])["path"]
            as? String ?? ""
        for index in 0..<pushes {
            try process.command(["cmd": "push", "name": "Edit \(index + 1)", "undo": "u\(index + 1)",
                                 "redo": "r\(index + 1)"])
        }
    }
}

extension DaemonFixture {
    /// Activates `pid`'s window with `activate` and waits until undod's
    /// `FocusedStack` is `path` because the compositor reported `pid` in
    /// front (for `/`, undod's refusal names `pid`). A compositor may map a
    /// new window a moment after the app showed it, so the activation is
    /// tried again, up to 20 times, a second each.
    public func focus(_ pid: Int32, expecting path: String, activate: () throws -> Void) rethrows -> Bool {
        for _ in 0..<20 {
            try activate()
            if wait(timeout: 1_000, until: { self.reportsFocus(on: pid, path) }) { return true }
        }
        return false
    }

    private func reportsFocus(on pid: Int32, _ path: String) -> Bool {
        guard (try? managerProperty("FocusedStack")?.string) == path else { return false }
        guard path == "/" else { return true }
        let refused = errorOf { () throws(DBusError) in try manager("UndoFocused") }
        return refused?.message.contains("(pid \(pid))") == true
    }
}
