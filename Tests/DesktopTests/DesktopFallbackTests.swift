import BusHarness
import DBus
import Foundation
import Testing

/// undod where the desktop falls short: no display, a display without a
/// window manager, an X server that dies. Each is one line in the log, and
/// undod keeps serving with the `recent` strategy (`auto`).
@Suite struct DesktopFallbackTests {
    @Test func withoutADisplayFocusIsRecent() throws {
        let f = try DaemonFixture()
        #expect(try f.managerProperty("FocusStrategy")?.string == "recent")
        #expect(f.waitForLogKey("x11.unavailable"))
        #expect(f.daemon.logKeyCount("x11.unavailable") == 1, "one line says so: \(f.daemon.log)")
        let app = try f.app("org.example.A", pushing: ["One"])
        #expect(try f.manager("UndoFocused").first?.string == app.stack)
        #expect(app.applied.count == 1)
    }

    @Test func withoutAWindowManagerFocusIsRecentUntilOneStarts() throws {
        let f = try DesktopFixture(windowManager: false)
        #expect(try f.daemon.managerProperty("FocusStrategy")?.string == "recent")
        #expect(f.waitForLogKey("x11.no-window-manager", holding: f.desktop.display))
        #expect(f.logKeyCount("x11.no-window-manager") == 1)
        // The key works all the same.
        let app = try f.daemon.app("org.example.A", pushing: ["One", "Two"])
        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        #expect(f.daemon.wait { app.applied.count == 1 })
        var strategy = ""
        f.daemon.watcher.subscribe(SignalMatch(path: "/org/undod/Undo1", interface: "org.freedesktop.DBus.Properties",
                                               member: "PropertiesChanged")) { message in
            if let value = message.arguments.dropFirst().first?.stringDictionary?["FocusStrategy"]?.string {
                strategy = value
            }
        }
        try f.daemon.ping()
        try f.desktop.startWindowManager()
        #expect(f.daemon.wait { strategy == "x11" })
        #expect(f.waitForLogKey("x11.window-manager", holding: f.desktop.display))
    }

    @Test func whenTheXServerDiesUndodGoesOnWithRecent() throws {
        let f = try DesktopFixture()
        #expect(try f.daemon.managerProperty("FocusStrategy")?.string == "x11")
        f.desktop.killServer()
        #expect(f.waitForLogKey("x11.lost", holding: f.desktop.display))
        #expect(try f.daemon.managerProperty("FocusStrategy")?.string == "recent")
        let app = try f.daemon.app("org.example.A", pushing: ["One"])
        #expect(try f.daemon.manager("UndoFocused").first?.string == app.stack)
        #expect(app.applied.count == 1)
        #expect(f.logKeyCount("x11.lost") == 1)
    }

    @Test func explicitX11WithoutADisplayFocusesNothing() throws {
        let f = try DaemonFixture(config: "[focus]\nstrategy = x11\n")
        #expect(try f.managerProperty("FocusStrategy")?.string == "x11")
        _ = try f.app("org.example.A", pushing: ["One"])
        #expect(errorOf { () throws(DBusError) in try f.manager("UndoFocused") }?.name == undodError("NoFocusedStack"))
        #expect(f.waitForLogKey("x11.unavailable"))
    }
}
