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
        #expect(f.wait { f.daemon.log.contains("no X display (DISPLAY is not set)") })
        let log = f.daemon.log
        #expect(log.components(separatedBy: "no X display (DISPLAY is not set)").count == 2, "\(log)")
        let app = try f.app("org.example.A", pushing: ["One"])
        #expect(try f.manager("UndoFocused").first?.string == app.stack)
        #expect(app.applied.count == 1)
    }

    @Test func withoutAWindowManagerFocusIsRecentUntilOneStarts() throws {
        let f = try DesktopFixture(windowManager: false)
        #expect(try f.daemon.managerProperty("FocusStrategy")?.string == "recent")
        let noManager = "no EWMH window manager answers on \(f.desktop.display): focus is recent until one starts."
        #expect(f.waitForLog(noManager))
        #expect(f.logCount(noManager) == 1)
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
        #expect(f.waitForLog("answers on \(f.desktop.display): focus follows its active window."))
    }

    @Test func whenTheXServerDiesUndodGoesOnWithRecent() throws {
        let f = try DesktopFixture()
        #expect(try f.daemon.managerProperty("FocusStrategy")?.string == "x11")
        f.desktop.killServer()
        #expect(f.waitForLog("lost the X server at \(f.desktop.display)"))
        #expect(try f.daemon.managerProperty("FocusStrategy")?.string == "recent")
        let app = try f.daemon.app("org.example.A", pushing: ["One"])
        #expect(try f.daemon.manager("UndoFocused").first?.string == app.stack)
        #expect(app.applied.count == 1)
        #expect(f.logCount("lost the X server") == 1)
    }

    @Test func explicitX11WithoutADisplayFocusesNothing() throws {
        let f = try DaemonFixture(config: "[focus]\nstrategy = x11\n")
        #expect(try f.managerProperty("FocusStrategy")?.string == "x11")
        _ = try f.app("org.example.A", pushing: ["One"])
        #expect(errorOf { () throws(DBusError) in try f.manager("UndoFocused") }?.name == undodError("NoFocusedStack"))
        #expect(f.wait { f.daemon.log.contains("no stack is focused unless one is pinned with SetFocus") })
    }
}
