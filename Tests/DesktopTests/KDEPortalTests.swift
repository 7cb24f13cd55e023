import BusHarness
import DBus
import Foundation
import Loop
import Testing

/// KDE Plasma without undod's KWin script: the keys through the real
/// GlobalShortcuts portal of Plasma 6 — `xdg-desktop-portal` and KDE's
/// backend from the release's root, the keys registered with KWin's
/// kglobalaccel under undod's name and invoked there as a press would.
/// Focus is then a guess (`recent`).
@Suite(.serialized, .enabled(if: !kdePortalReleases.isEmpty, "needs a newer Debian's desktop root"))
struct KDEPortalTests {
    /// A KWin whose data directories hold no undod script (so the script
    /// cannot load), its portal started, and an undod started after it.
    static func session(_ release: DesktopRelease, consented: Bool) throws -> (TestKWin, DaemonFixture) {
        let kwin = try TestKWin(release: release)
        if consented { try kwin.consentToPortalKeys() }
        let daemon = try DaemonFixture(environment: kwin.environment.merging(
            ["XDG_DATA_HOME": kwin.directory.path, "XDG_DATA_DIRS": kwin.directory.path]) { $1 })
        try kwin.start(busAddress: daemon.bus.address, loop: daemon.loop)
        try kwin.startPortal(loop: daemon.loop)
        try daemon.restart()
        return (kwin, daemon)
    }

    /// A user who accepted undod's keys once before: KDE's portal binds
    /// them without asking, and each press undoes or redoes in the
    /// application last used.
    @Test(arguments: kdePortalReleases)
    func theKeysAreBoundThroughTheDesktopsPortalAndUndoAndRedo(release: DesktopRelease) throws {
        let (kwin, daemon) = try Self.session(release, consented: true)
        defer { kwin.stop() }
        #expect(daemon.waitForLogKey("portal.bound", timeout: 30_000), "\(daemon.daemon.log)")
        #expect(daemon.daemon.logKeyCount("portal.unnamed") == 0, "the portal found undod's desktop entry")
        #expect(try daemon.managerProperty("FocusStrategy")?.string == "recent")
        let app = try daemon.app("org.example.Wayland", pushing: ["One", "Two"])
        try kwin.press("undo", of: "org.undod.undod", loop: daemon.loop)
        #expect(daemon.wait(timeout: 30_000) { app.applied.count == 1 }, "KWin's shortcut reaches undod")
        #expect(app.applied.first?.direction == "undo")
        try kwin.press("redo", of: "org.undod.undod", loop: daemon.loop)
        #expect(daemon.wait(timeout: 30_000) { app.applied.count == 2 })
        #expect(app.applied.last?.direction == "redo")
    }
}

/// The releases whose portal these tests run on (`DesktopRelease.portalTested`).
private let kdePortalReleases = DesktopRelease.portalTested(TestKWin.releases)
