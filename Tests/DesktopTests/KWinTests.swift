import BusHarness
import DBus
import Foundation
import Loop
import Rig
import Testing

/// The `kwin` strategy and undod's KWin script under a real headless KWin
/// (`kwin_wayland --virtual`), with applications in processes of their own,
/// each with a GTK window on KWin's Wayland display. KWin has no protocol
/// for injecting keys, so a one-off KWin script activates windows (as a
/// click would) and KDE's `invokeShortcut` runs the script's shortcuts (as
/// their keys would): the trigger undoes only in the application KWin has
/// in front, never in one behind, and never in one that only calls itself
/// by another's app id. One KWin at a time: each costs a core while it starts.
@Suite(.serialized, .enabled(if: !TestKWin.releases.isEmpty, "needs kwin_wayland (or a newer Debian's root), gdbus and busctl"))
struct KWinTests {
    /// A KWin and an undod that follows it (`auto` on a desktop named KDE,
    /// as a Plasma session's would be), started before KWin as at login.
    final class Fixture: CompositorFixture {
        static let strategy = "kwin"
        let kwin: TestKWin
        let daemon: DaemonFixture
        /// undod's signals: their arrival wakes the waits, which read its properties.
        let signals: SignalLog
        var loop: EventLoop { daemon.loop }

        init(_ release: DesktopRelease) throws {
            kwin = try TestKWin(release: release)
            daemon = try DaemonFixture(environment: kwin.undodEnvironment)
            signals = try daemon.recordSignals(subscribe: false)
            try startKWin()
        }

        /// Starts KWin and waits until undod has loaded its script into it.
        func startKWin() throws {
            let loads = daemon.daemon.logKeyCount("kwin.script-loaded")
            try kwin.start(busAddress: daemon.bus.address, loop: loop)
            #expect(daemon.waitForLogKey("kwin.script-loaded", count: loads + 1, timeout: 30_000),
                    "undod loads its script into the KWin that came: \(daemon.daemon.log)")
        }

        /// An application with a window titled `title` and, with `appId`, a
        /// stack that pushed `pushes` groups (see `WaylandApp`).
        func app(_ appId: String?, title: String, pushes: Int = 0, windowAppId: String? = nil) throws -> WaylandApp {
            try WaylandApp(bus: daemon.bus, environment: kwin.environment, loop: loop, appId: appId, title: title,
                           pushes: pushes, windowAppId: windowAppId) { (pid: Int32) throws in
                // KWin puts a new window in front when it maps it, which may be after the app
                // answered: a later focus would be taken back. Wait for it.
                let inFront = try self.focus(pid, expecting: "/")
                #expect(inFront, "\(title) never came in front")
            }
        }

        /// Activates `pid`'s window and waits until undod's `FocusedStack` is `path`.
        @discardableResult
        func focus(_ pid: Int32, expecting path: String) throws -> Bool {
            try daemon.focus(pid, expecting: path) { try kwin.focus(pid: pid, loop: loop) }
        }

        /// Runs the script's undo shortcut, as its key would.
        func pressUndo() throws { try kwin.press("undod-undo", loop: loop) }
        /// Runs the script's redo shortcut, as its key would.
        func pressRedo() throws { try kwin.press("undod-redo", loop: loop) }
    }

    @Test(arguments: TestKWin.releases)
    func focusFollowsKWinsActiveWindowAndTheTriggerUndoesOnlyThere(release: DesktopRelease) throws {
        try Fixture(release).focusFollowsTheWindowInFrontAndTheTriggerUndoesOnlyThere()
    }

    @Test(arguments: TestKWin.releases)
    func aWindowCallingItselfByAnotherAppsIdGetsNothing(release: DesktopRelease) throws {
        try Fixture(release).aWindowCallingItselfByAnotherAppsIdGetsNothing()
    }

    @Test(arguments: TestKWin.releases)
    func theScriptsShortcutsUndoAndRedoInTheWindowInFront(release: DesktopRelease) throws {
        try Fixture(release).theKeysUndoAndRedoInTheWindowInFront()
    }

    @Test(arguments: TestKWin.releases)
    func undodKilledAndStartedAgainLoadsItsScriptOnceAndUnloadsItWhenItStops(release: DesktopRelease) throws {
        let f = try Fixture(release)
        let a = try f.app("org.example.A", title: "Alpha", pushes: 3)
        // A killed undod leaves its script in KWin; the next one replaces it.
        try f.daemon.restart(crash: true)
        #expect(f.daemon.waitForLogKey("kwin.script-loaded", timeout: 30_000))
        #expect(try f.kwin.isScriptLoaded("undod", loop: f.loop))
        try a.process.command(["cmd": "register", "app_id": "org.example.A", "options": ["title": "Alpha"]])
        #expect(try f.focus(a.pid, expecting: a.stack))
        try f.pressUndo()
        #expect(try a.process.nextApply().payloads == ["u3"])
        // One press was one undo: the next is Edit 2, not Edit 1.
        #expect(try f.daemon.manager("UndoFocused").last?.string == "Edit 2")
        // An undod that stops takes its script out of KWin.
        f.daemon.daemon.signal(SIGTERM)
        #expect(f.daemon.daemon.waitForExit(loop: f.loop) == 0)
        #expect(try f.kwin.isScriptLoaded("undod", loop: f.loop) == false)
    }

    @Test(arguments: TestKWin.releases)
    func kwinRestartedUnderARunningUndodBringsFocusAndTheKeysBack(release: DesktopRelease) throws {
        let f = try Fixture(release)
        let before = try f.app("org.example.A", title: "Alpha", pushes: 1)
        #expect(try f.focus(before.pid, expecting: before.stack))
        before.process.stop()
        f.kwin.stop()
        #expect(f.daemon.waitForLogKey("kwin.left"))
        try f.startKWin()
        let b = try f.app("org.example.B", title: "Beta", pushes: 2)
        #expect(try f.focus(b.pid, expecting: b.stack))
        try f.pressUndo()
        #expect(try b.process.nextApply().payloads == ["u2"], "\(f.daemon.daemon.log)")
    }

    @Test(arguments: TestKWin.releases)
    func aProcessHoldingTheCompositorsNameIsNotHeard(release: DesktopRelease) throws {
        try Fixture(release).aProcessHoldingTheCompositorsNameIsNotHeard(busName: "org.kde.KWin")
    }
}
