import BusHarness
import DBus
import Foundation
import Loop
import Testing

/// GNOME without undod's extension: the keys through the real
/// GlobalShortcuts portal of GNOME 48 and later — `xdg-desktop-portal`,
/// GNOME's backend and GNOME Settings' shortcuts provider from the
/// release's root, the keys grabbed by the Shell and pressed through
/// mutter's remote-desktop interface. Focus is then a guess (`recent`).
/// Debian 12's portal has no GlobalShortcuts (`PortalTests` has the
/// scripted one), so this runs on the newer roots only.
@Suite(.serialized, .enabled(if: !portalReleases.isEmpty, "needs a newer Debian's desktop root"))
struct GnomePortalTests {

    /// A GNOME Shell without undod's extension, its portal started (as
    /// `consented` and `desktopEntry` say), and an undod started after it, as at login.
    static func session(_ release: DesktopRelease, consented: Bool,
                        desktopEntry: Bool = true) throws -> (TestGnomeShell, DaemonFixture) {
        let shell = try TestGnomeShell(release: release, undodExtension: .missing)
        let daemon = try DaemonFixture(environment: shell.environment)
        try shell.start(busAddress: daemon.bus.address, loop: daemon.loop)
        try shell.waitUntilStarted(loop: daemon.loop)
        try shell.startPortal(consented: consented, desktopEntry: desktopEntry, loop: daemon.loop)
        try daemon.restart()
        return (shell, daemon)
    }

    /// A user who accepted undod's keys once before: undod names itself
    /// to the portal (its desktop entry found), the portal binds both keys
    /// without asking, the Shell grabs them, and each press undoes or
    /// redoes in the application last used.
    @Test(arguments: portalReleases)
    func theKeysAreBoundThroughTheDesktopsPortalAndUndoAndRedo(release: DesktopRelease) throws {
        let (shell, daemon) = try Self.session(release, consented: true)
        defer { shell.stop() }
        #expect(daemon.waitForLogKey("portal.bound", timeout: 30_000), "\(daemon.daemon.log)")
        #expect(daemon.daemon.logKeyCount("portal.unnamed") == 0, "the portal found undod's desktop entry")
        // Each key as GNOME describes the trigger it bound.
        #expect(daemon.daemon.logKeyCount("portal.bound", holding: "Press <Control><Alt>z") == 1)
        #expect(daemon.daemon.logKeyCount("portal.bound", holding: "Press <Shift><Control><Alt>z") == 1)
        #expect(try daemon.managerProperty("FocusStrategy")?.string == "recent")
        // A window in front and the overview the Shell starts in closed
        // (Escape), as a user has it: the Shell fires the portal's keys in
        // its normal mode only.
        let app = try WaylandApp(bus: daemon.bus, environment: shell.environment, loop: daemon.loop,
                                 appId: "org.example.Wayland", title: "Portal", pushes: 2)
        #expect(daemon.wait(timeout: 30_000) { (try? shell.focus(pid: app.pid, loop: daemon.loop)) == true },
                "the Shell shows the window")
        try shell.press([0xff1b], loop: daemon.loop)
        try shell.press(TestGnomeShell.undoKeys, loop: daemon.loop)
        #expect(try app.process.nextApply().payloads == ["u2"], "the Shell's grab reaches undod")
        try shell.press(TestGnomeShell.redoKeys, loop: daemon.loop)
        #expect(try app.process.nextApply().payloads == ["r2"])
    }

    /// Without undod's desktop entry the portal cannot name undod, and
    /// GNOME's binds nothing for a nameless program: the log says which
    /// file to install, and that no portal binds the keys.
    @Test(arguments: portalReleases)
    func withoutItsDesktopEntryTheLogSaysWhatToInstall(release: DesktopRelease) throws {
        let (shell, daemon) = try Self.session(release, consented: true, desktopEntry: false)
        defer { shell.stop() }
        #expect(daemon.waitForLogKey("portal.unavailable", timeout: 30_000), "\(daemon.daemon.log)")
        #expect(daemon.daemon.logKeyCount("portal.unnamed", holding: "org.undod.undod.desktop") == 1, "the file to install")
        #expect(daemon.daemon.logKeyCount("portal.bound") == 0)
    }

    /// The first time, GNOME asks the user (GNOME Settings' dialog): undod
    /// says it asked, and binds nothing behind the user's back meanwhile.
    @Test(arguments: portalReleases)
    func theFirstTimeTheDesktopAsksAndNothingIsBoundMeanwhile(release: DesktopRelease) throws {
        let (shell, daemon) = try Self.session(release, consented: false)
        defer { shell.stop() }
        #expect(daemon.waitForLogKey("portal.asking", timeout: 30_000), "\(daemon.daemon.log)")
        let app = try daemon.app("org.example.Wayland", pushing: ["One"])
        try shell.press(TestGnomeShell.undoKeys, loop: daemon.loop)
        // What the press would have done is an Apply call to the app; the
        // bound-keys line is what a bind says. Neither comes while the dialog waits.
        let later = try daemon.app("org.example.Later", pushing: ["Two"])
        #expect(try daemon.manager("UndoFocused").first?.string == later.stack, "undod answers meanwhile")
        #expect(app.applied.isEmpty, "no key is bound before the user says yes")
        #expect(daemon.daemon.logKeyCount("portal.bound") == 0)
    }
}

/// The releases whose portal these tests run on (`DesktopRelease.portalTested`).
private let portalReleases = DesktopRelease.portalTested(TestGnomeShell.releases)
