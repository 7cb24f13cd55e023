import BusHarness
import DBus
import Foundation
import Loop
import Testing

/// A global key that cannot work is never dead in silence: for each cause
/// undod can see — GNOME on Wayland with undod's extension not active (not
/// installed, disabled, OUT OF DATE), KDE on Wayland with its KWin script
/// not loaded, no display known at all — the manager's `KeyProblem` names
/// the cause and the command that fixes it, `undoctl status` shows it, and
/// one notification says it once per run (not again when the desktop
/// restarts). Real Shells and KWins, as the compositor suites run them.
@Suite(.serialized)
struct DeadKeyTests {
    /// undod's `KeyProblem` property now.
    static func keyProblem(_ daemon: DaemonFixture) -> String {
        (try? daemon.managerProperty("KeyProblem")?.string) ?? "?"
    }

    /// `undoctl status` on `daemon`'s bus: its exit status and both outputs.
    static func status(_ daemon: DaemonFixture) throws -> ToolResult {
        try runTool([DaemonProcess.undoctl.path, "--address", daemon.bus.address, "status"], loop: daemon.loop)
    }

    /// What every cause shows: the property and `undoctl status` name
    /// `fix`, and one notification came.
    static func expectSaid(_ fix: String, by daemon: DaemonFixture, notes: NotificationMonitor) throws {
        #expect(daemon.wait(timeout: 30_000) { keyProblem(daemon).contains(fix) }, "\(daemon.daemon.log)")
        let status = try status(daemon)
        #expect((status.output + status.errors).contains(fix), "undoctl status says it: \(status.output)\(status.errors)")
        #expect(notes.wait(loop: daemon.loop) { notes.summaries.contains("The undo key is not set up here") },
                "one notification says it")
        #expect(notes.summaries.filter { $0 == "The undo key is not set up here" }.count == 1)
    }

    /// A GNOME Shell of `release` with undod's extension as `setup` says,
    /// and an undod that follows it; once the problem is said, the Shell
    /// restarts and says it again: the property comes back, the
    /// notification does not.
    static func gnome(_ release: DesktopRelease, _ setup: TestGnomeShell.UndodExtension, fix: String) throws {
        let shell = try TestGnomeShell(release: release, undodExtension: setup)
        let daemon = try DaemonFixture(environment: shell.environment)
        let notes = try NotificationMonitor(address: daemon.bus.address, loop: daemon.loop)
        try shell.start(busAddress: daemon.bus.address, loop: daemon.loop)
        try shell.startNotifications(loop: daemon.loop)
        try expectSaid(fix, by: daemon, notes: notes)
        #expect(try daemon.managerProperty("FocusStrategy")?.string == "recent")
        shell.stop()
        #expect(daemon.wait { keyProblem(daemon).isEmpty }, "a Shell that left says nothing of its extension")
        try shell.start(busAddress: daemon.bus.address, loop: daemon.loop)
        try shell.startNotifications(loop: daemon.loop)
        #expect(notes.wait(loop: daemon.loop) { notes.announced("KeyProblem").filter { $0.contains(fix) }.count == 2 },
                "the Shell back, the problem is back: \(notes.announced("KeyProblem"))")
        #expect(notes.summaries.filter { $0 == "The undo key is not set up here" }.count == 1, "once per run")
        #expect(daemon.daemon.logKeyCount("keys.problem", holding: fix) == 1,
                "the log says it once: \(daemon.daemon.logLines(withKey: "keys.problem"))")
    }

    @Test(.enabled(if: !TestGnomeShell.releases.isEmpty), arguments: TestGnomeShell.releases)
    func aDisabledGnomeExtensionIsSaid(release: DesktopRelease) throws {
        try Self.gnome(release, .disabled, fix: "gnome-extensions enable undod@undod.org")
    }

    @Test(.enabled(if: !TestGnomeShell.releases.isEmpty), arguments: TestGnomeShell.releases)
    func anOutOfDateGnomeExtensionIsSaid(release: DesktopRelease) throws {
        try Self.gnome(release, .outOfDate, fix: "disable-extension-version-validation true")
    }

    @Test(.enabled(if: TestGnomeShell.isAvailable(on: .host)))
    func aMissingGnomeExtensionIsSaid() throws {
        try Self.gnome(.host, .missing, fix: "not installed")
    }

    @Test(.enabled(if: TestKWin.isAvailable(on: .host)))
    func aKWinScriptThatIsNotInstalledIsSaid() throws {
        let kwin = try TestKWin()
        // The session's variables, without the data directory holding the script.
        let daemon = try DaemonFixture(environment: kwin.environment.merging(
            ["XDG_DATA_HOME": kwin.directory.path, "XDG_DATA_DIRS": kwin.directory.path]) { $1 })
        let notes = try NotificationMonitor(address: daemon.bus.address, loop: daemon.loop)
        let desktop = try TestDesktop(windowManager: false)
        try desktop.startNotifications(bus: daemon.bus, loop: daemon.loop, watcher: daemon.watcher)
        try kwin.start(busAddress: daemon.bus.address, loop: daemon.loop)
        try Self.expectSaid("KWin script is not installed", by: daemon, notes: notes)
    }

    @Test func noDisplayAtAllIsSaid() throws {
        let daemon = try DaemonFixture(environment: ["DISPLAY": "", "WAYLAND_DISPLAY": "", "SWAYSOCK": ""])
        let notes = try NotificationMonitor(address: daemon.bus.address, loop: daemon.loop)
        let desktop = try TestDesktop(windowManager: false)
        try desktop.startNotifications(bus: daemon.bus, loop: daemon.loop, watcher: daemon.watcher)
        try Self.expectSaid("dbus-update-activation-environment --systemd DISPLAY", by: daemon, notes: notes)
    }

    /// GNOME without undod's extension: the GlobalShortcuts portal binds
    /// the keys meanwhile (focus then a guess), and its session is closed
    /// once the extension is enabled, so one press stays one undo. The
    /// portal is the scripted one of `PortalTests` (Debian 12 has none with
    /// GlobalShortcuts); the Shell is real.
    @Test(.enabled(if: TestGnomeShell.isAvailable(on: .host)))
    func gnomeWithoutItsExtensionBindsTheKeysThroughThePortalMeanwhile() throws {
        let shell = try TestGnomeShell(undodExtension: .disabled)
        let daemon = try DaemonFixture(environment: shell.environment)
        let portal = try ScriptedProcess(["/usr/bin/python3", DesktopFixture.client("scripted_portal.py"),
                                          "--bus", daemon.bus.address], loop: daemon.loop)
        defer { portal.stop() }
        try portal.next(event: "ready")
        try shell.start(busAddress: daemon.bus.address, loop: daemon.loop)
        let bound = try portal.next(event: "bound", timeout: 30_000)
        #expect((bound["shortcuts"] as? [[String: Any]])?.map { $0["id"] as? String ?? "" } == ["undo", "redo"])
        let app = try daemon.app("org.example.Wayland", pushing: ["One", "Two"])
        try portal.command(["cmd": "activate", "id": "undo"])
        #expect(daemon.wait { app.applied.count == 1 }, "the portal's key undoes (no notification server: no question)")
        // The user enables the extension: the Shell binds the keys, undod lets the portal's go.
        let enabled = try runTool(["busctl", "--address=\(daemon.bus.address)", "call", "org.gnome.Shell",
                                   "/org/gnome/Shell", "org.gnome.Shell.Extensions", "EnableExtension", "s",
                                   "undod@undod.org"], loop: daemon.loop)
        #expect(enabled.status == 0, "\(enabled.errors)")
        let closed = try portal.next(event: "session_closed", timeout: 30_000)
        #expect(closed["reason"] as? String == "client-close")
        #expect(daemon.wait { Self.keyProblem(daemon).isEmpty })
    }
}
