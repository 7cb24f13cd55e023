import BusHarness
import DBus
import Foundation
import Loop
import Rig
import Testing

/// The `gnome` strategy and undod's GNOME Shell extension under a real
/// headless GNOME Shell, with the extension installed as `make install`
/// puts it down and enabled, and applications in processes of their own,
/// each with a GTK window on the Shell's Wayland display. The tests' own
/// extension activates windows (as a click would); mutter's remote-desktop
/// interface presses the keys. Each test runs on every release of
/// `TestGnomeShell.releases`: the host's GNOME Shell 43 and newer Debians'
/// (48, 50, …) from their roots: the trigger undoes only in the application
/// the Shell has in front, never in one behind, and never in one that only
/// calls itself by another's app id. One Shell at a time: each costs a core
/// while it starts.
@Suite(.serialized, .enabled(if: !TestGnomeShell.releases.isEmpty,
                             "needs GNOME Shell 43 or 44 on the host, or a newer Debian's root, gdbus and glib-compile-schemas"))
struct GnomeShellTests {
    /// A GNOME Shell and an undod that follows it (`auto` on a desktop named
    /// GNOME, as a GNOME session's would be), started before the Shell as
    /// at login.
    final class Fixture: CompositorFixture {
        static let strategy = "gnome"
        let shell: TestGnomeShell
        let daemon: DaemonFixture
        /// undod's signals: their arrival wakes the waits, which read its properties.
        let signals: SignalLog
        var loop: EventLoop { daemon.loop }

        init(_ release: DesktopRelease) throws {
            shell = try TestGnomeShell(release: release)
            daemon = try DaemonFixture(environment: shell.environment)
            signals = try daemon.recordSignals(subscribe: false)
            try startShell()
        }

        /// Starts the Shell and waits until its extension has reported to
        /// undod (which then follows it).
        func startShell() throws {
            try shell.start(busAddress: daemon.bus.address, loop: loop)
            #expect(daemon.wait(timeout: 30_000) {
                (try? self.daemon.managerProperty("FocusStrategy")?.string) == "gnome"
            }, "the extension reports once enabled: \(daemon.daemon.log)")
            // Extensions are enabled before the Shell's start-up ends; keys pressed till then are dropped.
            try shell.waitUntilStarted(loop: loop)
            // An extension on its way to ACTIVE (GNOME 50 says INACTIVE while it loads) is no problem to say.
            let problems = signals.arguments(of: "PropertiesChanged").compactMap {
                $0.dropFirst().first?.stringDictionary?["KeyProblem"]?.string
            }
            let said = problems.filter { !$0.isEmpty }
            #expect(said.isEmpty, "an enabled extension is never a dead key: \(said)")
        }

        /// An application with a window titled `title` and, with `appId`, a
        /// stack that pushed `pushes` groups (see `WaylandApp`).
        func app(_ appId: String?, title: String, pushes: Int = 0, windowAppId: String? = nil) throws -> WaylandApp {
            try WaylandApp(bus: daemon.bus, environment: shell.environment, loop: loop, appId: appId, title: title,
                           pushes: pushes, windowAppId: windowAppId) { (pid: Int32) throws in
                // The Shell puts a new window in front when it maps it, which may be after the app
                // answered: a later focus would be taken back. Wait for it.
                let inFront = try self.focus(pid, expecting: "/")
                #expect(inFront, "\(title) never came in front")
            }
        }

        /// Activates `pid`'s window and waits until undod's `FocusedStack` is `path`.
        @discardableResult
        func focus(_ pid: Int32, expecting path: String) throws -> Bool {
            try daemon.focus(pid, expecting: path) { _ = try shell.focus(pid: pid, loop: loop) }
        }

        func pressUndo() throws { try shell.press(TestGnomeShell.undoKeys, loop: loop) }
        func pressRedo() throws { try shell.press(TestGnomeShell.redoKeys, loop: loop) }
    }

    @Test(arguments: TestGnomeShell.releases)
    func focusFollowsTheShellsFocusWindowAndTheTriggerUndoesOnlyThere(release: DesktopRelease) throws {
        try Fixture(release).focusFollowsTheWindowInFrontAndTheTriggerUndoesOnlyThere()
    }

    @Test(arguments: TestGnomeShell.releases)
    func aWindowCallingItselfByAnotherAppsIdGetsNothing(release: DesktopRelease) throws {
        try Fixture(release).aWindowCallingItselfByAnotherAppsIdGetsNothing()
    }

    @Test(arguments: TestGnomeShell.releases)
    func theExtensionsKeysUndoAndRedoInTheWindowInFront(release: DesktopRelease) throws {
        try Fixture(release).theKeysUndoAndRedoInTheWindowInFront()
    }

    @Test(arguments: TestGnomeShell.releases)
    func undodKilledAndStartedAgainFollowsTheShellAtOnceAndOnePressIsOneUndo(release: DesktopRelease) throws {
        let f = try Fixture(release)
        let a = try f.app("org.example.A", title: "Alpha", pushes: 3)
        #expect(try f.focus(a.pid, expecting: a.stack))
        try f.daemon.restart(crash: true)
        // The extension reports to the new undod as soon as it takes its name.
        #expect(f.daemon.wait(timeout: 30_000) { (try? f.daemon.managerProperty("FocusStrategy")?.string) == "gnome" })
        try a.process.command(["cmd": "register", "app_id": "org.example.A", "options": ["title": "Alpha"]])
        #expect(f.daemon.wait { (try? f.daemon.managerProperty("FocusedStack")?.string) == a.stack },
                "A is still in front, without a click")
        try f.pressUndo()
        #expect(try a.process.nextApply().payloads == ["u3"])
        #expect(try f.daemon.manager("UndoFocused").last?.string == "Edit 2")
    }

    @Test(arguments: TestGnomeShell.releases)
    func theShellRestartedUnderARunningUndodBringsFocusAndTheKeysBack(release: DesktopRelease) throws {
        let f = try Fixture(release)
        let before = try f.app("org.example.A", title: "Alpha", pushes: 1)
        #expect(try f.focus(before.pid, expecting: before.stack))
        before.process.stop()
        f.shell.stop()
        // A Shell that left takes its report with it.
        #expect(f.daemon.wait { (try? f.daemon.managerProperty("FocusStrategy")?.string) != "gnome" })
        try f.startShell()
        let b = try f.app("org.example.B", title: "Beta", pushes: 2)
        #expect(try f.focus(b.pid, expecting: b.stack))
        try f.pressUndo()
        #expect(try b.process.nextApply().payloads == ["u2"], "\(f.daemon.daemon.log)")
    }

    @Test(arguments: TestGnomeShell.releases)
    func aProcessHoldingTheCompositorsNameIsNotHeard(release: DesktopRelease) throws {
        try Fixture(release).aProcessHoldingTheCompositorsNameIsNotHeard(busName: "org.gnome.Shell")
    }
}
