import BusHarness
import DBus
import Foundation
import Testing

/// The global keys on Wayland through `org.freedesktop.portal.GlobalShortcuts`.
/// Debian 12's xdg-desktop-portal has no GlobalShortcuts, so the portal here
/// is a small scripted one (`Tests/Clients/scripted_portal.py`) that follows
/// the portal's published interface, on the test's private bus.
@Suite struct PortalTests {
    static let wayland = ["WAYLAND_DISPLAY": "wayland-undod-test"]

    @Test func theShortcutsAreBoundAndUndoAndRedo() throws {
        let f = try DaemonFixture(environment: Self.wayland)
        let portal = try ScriptedProcess(["/usr/bin/python3", DesktopFixture.client("scripted_portal.py"),
                                          "--bus", f.bus.address], loop: f.loop)
        defer { portal.stop() }
        try portal.next(event: "ready")
        try f.restart()
        let bound = try portal.next(event: "bound")
        let shortcuts = bound["shortcuts"] as? [[String: Any]] ?? []
        #expect(shortcuts.map { $0["id"] as? String ?? "" } == ["undo", "redo"])
        #expect(shortcuts.map { $0["preferred_trigger"] as? String ?? "" } == ["CTRL+ALT+z", "CTRL+ALT+SHIFT+z"])
        #expect(f.waitForLogKey("portal.bound", holding: "CTRL+ALT+z"),
                "the keys as the portal describes them: \(f.daemon.log)")
        #expect(try f.managerProperty("FocusStrategy")?.string == "recent")
        let app = try f.app("org.example.Wayland", pushing: ["One", "Two"])
        try portal.command(["cmd": "activate", "id": "undo"])
        #expect(f.wait { app.applied.count == 1 })
        #expect(app.applied.first?.direction == "undo" && app.applied.first?.payloads == [[1, 0xAA]])
        try portal.command(["cmd": "activate", "id": "redo"])
        #expect(f.wait { app.applied.count == 2 })
        #expect(app.applied.last?.direction == "redo")
    }

    @Test func withoutAPortalOneLineSaysHowToBindTheKeys() throws {
        let f = try DaemonFixture(environment: Self.wayland)
        #expect(f.waitForLogKey("portal.unavailable"))
        #expect(f.daemon.logKeyCount("portal.unavailable") == 1, "\(f.daemon.log)")
        #expect(f.daemon.logKeyCount("portal.unavailable", holding: "`undoctl undo`") == 1, "it names the commands to bind")
        let app = try f.app("org.example.Wayland", pushing: ["One"])
        #expect(try f.manager("UndoFocused").first?.string == app.stack)
    }

    @Test func aPortalThatRefusesIsReported() throws {
        let f = try DaemonFixture(environment: Self.wayland)
        let portal = try ScriptedProcess(["/usr/bin/python3", DesktopFixture.client("scripted_portal.py"),
                                          "--bus", f.bus.address, "--refuse"], loop: f.loop)
        defer { portal.stop() }
        try portal.next(event: "ready")
        try f.restart()
        #expect(f.waitForLogKey("portal.unavailable", holding: "CreateSession"), "\(f.daemon.log)")
    }
}
