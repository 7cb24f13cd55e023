import BusHarness
import DBus
import Foundation
import Loop
import ProcessEnvironment
import Rig
import Testing

/// An undod started before the graphical session (D-Bus activation at
/// login, with no DISPLAY) takes up the X display when the systemd user
/// manager's environment gains it and undod is told (SIGHUP, or the
/// manager's PropertiesChanged): focus follows the active window and the
/// global keys are grabbed, without a restart, and the loop serves
/// meanwhile.
@Suite struct LaterDisplayTests {
    @Test func anUndodStartedWithoutADisplayTakesUpOneThatComesLater() throws {
        let desktop = try TestDesktop()
        defer { desktop.stop() }
        let f = try DaemonFixture(environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
        // undod's signals: their arrival wakes the waits.
        let signals = try f.recordSignals(subscribe: false)
        #expect(try f.managerProperty("FocusStrategy")?.string == "recent")
        // A stand-in for the systemd user manager, whose environment the
        // session fills at login (systemctl --user import-environment DISPLAY).
        var environment = ["PATH=/usr/bin:/bin"]
        let manager = try f.app()
        #expect(try manager.connection.requestName("org.freedesktop.systemd1"))
        let objects = ObjectServer(connection: manager.connection)
        objects.export(path: "/org/freedesktop/systemd1", interfaces: [
            Interface("org.freedesktop.systemd1.Manager", properties: [
                .init("Environment", "as") { .strings(environment) },
            ]),
        ])
        environment += ["DISPLAY=\(desktop.display)"]
        f.daemon.signal(SIGHUP)
        #expect(f.wait { (try? f.managerProperty("FocusStrategy")?.string) == "x11" }, "\(f.daemon.log)")
        #expect(f.daemon.logKeyCount("x11.taken-up", holding: desktop.display) == 1, "\(f.daemon.log)")
        #expect(f.wait { signals.announced("/org/undod/Undo1", "FocusStrategy", .string("x11")) })
        let app = try ScriptedProcess(["/usr/bin/python3", Repository.client("x11_app.py"), "--display", desktop.display,
                                       "--bus", f.bus.address], loop: f.loop)
        defer { app.stop() }
        try app.next(event: "ready")
        let window = try app.command(["cmd": "window", "name": "main", "title": "Alpha"])["xid"] as? Int ?? 0
        let stack = try app.command(["cmd": "register", "app_id": "org.example.A", "options": ["title": "Alpha"]])["path"]
            as? String ?? ""
        try app.command(["cmd": "push", "name": "Edit 1", "undo": "u1", "redo": "r1"])
        // A second app is the most recently active; the window in front wins.
        _ = try f.app("org.example.B", pushing: ["Other"])
        try desktop.activate(window, loop: f.loop)
        #expect(f.wait { (try? f.managerProperty("FocusedStack")?.string) == stack })
        // The key is grabbed too.
        #expect(f.waitForLogKey("x11.keys-grabbed", holding: "Ctrl+Alt+z"), "\(f.daemon.log)")
        try desktop.press("ctrl+alt+z", loop: f.loop)
        #expect(try app.nextApply().payloads == ["u1"])
    }

    @Test func aProcessPosingAsSystemdIsNotHeard() throws {
        let desktop = try TestDesktop()
        defer { desktop.stop() }
        let f = try DaemonFixture(environment: ["DISPLAY": "", "WAYLAND_DISPLAY": "", "XDG_CURRENT_DESKTOP": "XFCE"])
        #expect(try f.managerProperty("FocusStrategy")?.string == "recent")
        // Not undod's parent and not systemd: python3 holding the name, offering a display.
        let fake = try ScriptedProcess(["/usr/bin/python3", Repository.client("fake_systemd.py"), f.bus.address,
                                        "DISPLAY=\(desktop.display)", "XDG_CURRENT_DESKTOP=GNOME"], loop: f.loop)
        defer { fake.stop() }
        try fake.next(event: "ready")
        f.daemon.signal(SIGHUP)
        #expect(f.waitForLogKey("desktop.environment-ignored"), "\(f.daemon.log)")
        #expect(f.daemon.logKeyCount("desktop.environment-ignored", holding: "python3") == 1,
                "said once, naming the process: \(f.daemon.log)")
        #expect(try f.managerProperty("FocusStrategy")?.string == "recent")
    }

    @Test func sighupTriesAgainADisplayWhoseServerWasNotUp() throws {
        let number = TestDesktop.freeDisplay()
        let f = try DaemonFixture(environment: ["DISPLAY": ":\(number)", "WAYLAND_DISPLAY": ""])
        let signals = try f.recordSignals(subscribe: false)
        #expect(try f.managerProperty("FocusStrategy")?.string == "recent")
        #expect(f.waitForLogKey("x11.unavailable", holding: ":\(number)"), "start-up says the display did not answer")
        // The X server comes up under the same name; SIGHUP, and undod takes it.
        let desktop = try TestDesktop(display: number)
        defer { desktop.stop() }
        f.daemon.signal(SIGHUP)
        #expect(f.wait { (try? f.managerProperty("FocusStrategy")?.string) == "x11" }, "\(f.daemon.log)")
        #expect(f.wait { signals.announced("/org/undod/Undo1", "FocusStrategy", .string("x11")) })
    }
}
