import BusHarness
import DBus
import Foundation
import Loop
import ProcessEnvironment
import Rig
import Testing

/// The `sway` strategy and sway's bindings under a real headless sway, with
/// applications in processes of their own, each with a GTK window on the
/// Wayland display, and `swaymsg`/`wtype` as the user's hand: the trigger
/// undoes only in the application whose view sway has focused, never in one
/// behind, and never in one that only calls itself by another's app id.
@Suite(.enabled(if: !TestSway.releases.isEmpty, "needs root (to run sway as another user), sway, wtype and setpriv"))
struct SwayTests {
    /// A sway and an undod that follows it (`auto`, as a user's would be).
    final class Fixture: CompositorFixture {
        static let strategy = "sway"
        let sway: TestSway
        let daemon: DaemonFixture
        /// `swaymsg -t subscribe '["window","tick"]'`: each view sway maps, as a line.
        private var windows: ScriptedProcess
        /// undod's signals: their arrival wakes the waits, which read `FocusedStack`.
        let signals: SignalLog
        var loop: EventLoop { daemon.loop }

        /// A sway, and an undod told of it at start (`knowingSway`) or not
        /// (started before the desktop, as by D-Bus activation at login).
        /// `services`: what the bus activates (the shell's agent, say).
        init(_ release: DesktopRelease, knowingSway: Bool = true, services: URL? = nil) throws {
            sway = try TestSway(release: release)
            daemon = try DaemonFixture(environment: knowingSway ? sway.environment : [:], services: services)
            windows = try Self.windowEvents(of: sway, loop: daemon.loop)
            signals = try daemon.recordSignals(subscribe: false)
        }

        /// Follows sway's window events from now on.
        static func windowEvents(of sway: TestSway, loop: EventLoop) throws -> ScriptedProcess {
            // Subscribing to ticks brings one at once: then the subscription is in force.
            let events = try ScriptedProcess(["/usr/bin/swaymsg", "-r", "-m", "-t", "subscribe", #"["window","tick"]"#],
                                             environment: sway.environment, loop: loop)
            try events.next(timeout: 10_000, "the first tick") { $0["first"] as? Bool == true }
            return events
        }

        /// Kills sway, starts it again and waits until undod follows the new one.
        func restartSway() throws {
            windows.stop()
            try sway.restart()
            windows = try Self.windowEvents(of: sway, loop: loop)
            let socket = sway.socket
            #expect(daemon.waitForLogKey("sway.answers", holding: socket),
                    "undod finds the new sway by itself: \(daemon.daemon.log)")
        }

        /// An application with a window titled `title` and, with `appId`, a
        /// stack that pushed `pushes` groups (see `WaylandApp`); focusable
        /// once sway has mapped its view.
        func app(_ appId: String?, title: String, pushes: Int = 0, windowAppId: String? = nil) throws -> WaylandApp {
            try WaylandApp(bus: daemon.bus, environment: sway.environment, loop: loop, appId: appId, title: title,
                           pushes: pushes, windowAppId: windowAppId) { pid in
                try windows.next(timeout: 10_000, "a new view of pid \(pid)") { line in
                    line["change"] as? String == "new" && (line["container"] as? [String: Any])?["pid"] as? Int == Int(pid)
                }
            }
        }

        /// Waits until sway maps a view of process `pid`.
        func waitForView(of pid: Int32) throws {
            try windows.next(timeout: 30_000, "a new view of pid \(pid)") { line in
                line["change"] as? String == "new" && (line["container"] as? [String: Any])?["pid"] as? Int == Int(pid)
            }
        }

        /// Focuses `pid`'s view and waits until undod's `FocusedStack` is `path`.
        @discardableResult
        func focus(_ pid: Int32, expecting path: String) throws -> Bool {
            try sway.focus(pid: pid, loop: loop)
            return daemon.wait { (try? self.daemon.managerProperty("FocusedStack")?.string) == path }
        }

        /// Presses the undo key (Ctrl+Alt+z) with wtype.
        func pressUndo() throws {
            try sway.type(["-M", "ctrl", "-M", "alt", "z", "-m", "alt", "-m", "ctrl"], loop: loop)
        }

        /// Presses the redo key (Ctrl+Alt+Shift+z) with wtype.
        func pressRedo() throws {
            try sway.type(["-M", "ctrl", "-M", "alt", "-M", "shift", "z", "-m", "shift", "-m", "alt", "-m", "ctrl"],
                          loop: loop)
        }
    }

    @Test(arguments: TestSway.releases)
    func focusFollowsSwaysFocusedViewAndTheTriggerUndoesOnlyThere(release: DesktopRelease) throws {
        try Fixture(release).focusFollowsTheWindowInFrontAndTheTriggerUndoesOnlyThere()
    }

    @Test(arguments: TestSway.releases)
    func aWindowCallingItselfByAnotherAppsIdGetsNothing(release: DesktopRelease) throws {
        try Fixture(release).aWindowCallingItselfByAnotherAppsIdGetsNothing()
    }

    /// The shell's undo with a real Wayland terminal in front: foot running
    /// an integrated bash that ran `rm notes.txt` through the functions;
    /// the key with foot in front brings the file back, and with an
    /// application's window in front the key is that application's. The
    /// line is run by the shell's start-up file, not typed: wtype's letters
    /// reach foot (1.13) under headless sway only now and then (each comes
    /// with a keymap of its own); typing is tried under X11
    /// (`XtermShellUndoTests`), where xdotool's letters arrive.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/foot"), "needs foot"),
          arguments: TestSway.releases)
    func theKeyUndoesTheRmTypedInTheTerminalInFront(release: DesktopRelease) throws {
        let services = try FilesAgentService()
        let f = try Fixture(release, services: services.directory)
        let shell = try IntegratedShell(in: f.sway.directory.appendingPathComponent("shell-\(UUID().uuidString.prefix(8))"),
                                        loop: f.loop, first: "rm notes.txt")
        let foot = Process()
        foot.executableURL = URL(fileURLWithPath: "/usr/bin/foot")
        foot.arguments = ["--title", "undod-foot"] + shell.command
        foot.environment = shell.environment(f.sway.environment, bus: f.daemon.bus)
        try foot.run()
        defer { foot.terminate() }
        try f.waitForView(of: foot.processIdentifier)
        #expect(f.daemon.wait(timeout: 30_000) { shell.isReady }, "bash in foot is ready")
        try f.sway.focus(pid: foot.processIdentifier, loop: f.loop)
        #expect(f.daemon.wait(timeout: 20_000) {
            guard let stack = try? f.daemon.managerProperty("FocusedStack")?.string, stack != "/" else { return false }
            return (try? f.daemon.stackProperty(stack, "UndoName")?.string) == "rm notes.txt"
        }, "the shell's stack has the focus with its rm on top")
        #expect(!FileManager.default.fileExists(atPath: shell.notes.path))
        let shellStack = try #require(try f.daemon.managerProperty("FocusedStack")?.string)

        try f.pressUndo()
        #expect(f.daemon.wait(timeout: 20_000) {
            (try? f.daemon.stackProperty(shellStack, "RedoName")?.string) == "rm notes.txt"
        }, "undone by the key")
        #expect(try String(contentsOf: shell.notes, encoding: .utf8) == "my notes")

        let app = try f.app("org.example.A", title: "Alpha", pushes: 1)
        #expect(try f.focus(app.pid, expecting: app.stack))
        try f.pressUndo()
        #expect(try app.process.nextApply().payloads == ["u1"])
        #expect(try f.daemon.stackProperty(shellStack, "UndoDepth")?.uint32 == 0, "the shell's history as it was")
    }

    @Test(arguments: TestSway.releases)
    func theKeysAreSwayBindingsAndUndoAndRedoInTheViewInFront(release: DesktopRelease) throws {
        try Fixture(release).theKeysUndoAndRedoInTheWindowInFront()
    }

    @Test(arguments: TestSway.releases)
    func swayRestartedUnderARunningUndodBringsFocusAndTheKeyBack(release: DesktopRelease) throws {
        let f = try Fixture(release)
        let before = try f.app("org.example.A", title: "Alpha", pushes: 1)
        #expect(try f.focus(before.pid, expecting: before.stack))
        try f.restartSway()
        // Its windows went with the old sway; a new app on the new one.
        let a = try f.app("org.example.B", title: "Beta", pushes: 2)
        #expect(try f.focus(a.pid, expecting: a.stack))
        try f.pressUndo()
        let applied = try? a.process.nextApply()
        #expect(applied?.payloads == ["u2"], "\(f.daemon.daemon.log)")
    }

    @Test(arguments: TestSway.releases)
    func undodKilledAndStartedAgainBindsTheKeyOnce(release: DesktopRelease) throws {
        let f = try Fixture(release)
        let a = try f.app("org.example.A", title: "Alpha", pushes: 3)
        try f.daemon.restart(crash: true)
        // The app registers again with the new undod (as UndoKit does).
        try a.process.command(["cmd": "register", "app_id": "org.example.A", "options": ["title": "Alpha"]])
        #expect(try f.focus(a.pid, expecting: a.stack))
        try f.pressUndo()
        #expect(try a.process.nextApply().payloads == ["u3"])
        // One press was one undo: the next is Edit 2, not Edit 1.
        #expect(try f.daemon.manager("UndoFocused").last?.string == "Edit 2")
    }

    /// Steps of the randomized walk (UNDOD_WALK_STEPS, default 200).
    static let walkSteps = Int(ProcessInfo.processInfo.environment["UNDOD_WALK_STEPS"] ?? "") ?? 200

    @Test(arguments: TestSway.releases)
    func anUndodStartedBeforeTheDesktopTakesUpSwayWhenTheSessionNamesIt(release: DesktopRelease) throws {
        let f = try Fixture(release, knowingSway: false)
        #expect(try f.daemon.managerProperty("FocusStrategy")?.string == "recent")
        // A stand-in for the systemd user manager, whose environment the
        // session fills at login (dbus-update-activation-environment --systemd).
        var environment = ["PATH=/usr/bin:/bin"]
        let manager = try f.daemon.app()
        #expect(try manager.connection.requestName("org.freedesktop.systemd1"))
        let objects = ObjectServer(connection: manager.connection)
        objects.export(path: "/org/freedesktop/systemd1", interfaces: [
            Interface("org.freedesktop.systemd1.Manager", properties: [
                .init("Environment", "as") { .strings(environment) },
            ]),
        ])
        environment += ["WAYLAND_DISPLAY=\(f.sway.waylandDisplay)", "SWAYSOCK=\(f.sway.socket)",
                        "XDG_CURRENT_DESKTOP=sway"]
        // SIGHUP: undod looks at the desktop again, and finds sway.
        f.daemon.daemon.signal(SIGHUP)
        #expect(f.daemon.wait { (try? f.daemon.managerProperty("FocusStrategy")?.string) == "sway" },
                "\(f.daemon.daemon.log)")
        let a = try f.app("org.example.A", title: "Alpha", pushes: 1)
        #expect(try f.focus(a.pid, expecting: a.stack))
        try f.pressUndo()
        #expect(try a.process.nextApply().payloads == ["u1"], "the key is bound too")
    }

    @Test(arguments: TestSway.releases)
    func aRandomizedFocusWalkNeverUndoesBehindTheViewInFront(release: DesktopRelease) throws {
        let f = try Fixture(release)
        var random = SplitMix64(seed: 20_261_203)
        var apps: [(process: ScriptedProcess, pid: Int32, stack: String, pushed: Int)] = []
        for index in 0..<3 {
            let app = try f.app("org.example.Walk\(index)", title: "Walk \(index)", pushes: 1)
            apps.append((app.process, app.pid, app.stack, 1))
        }
        let stackless = try f.app(nil, title: "Terminal")
        var wrong = 0
        var undone = 0
        for step in 0..<Self.walkSteps {
            let pick = Int(random.next() % 4)
            let front = pick < 3 ? apps[pick] : nil
            try f.sway.focus(pid: front?.pid ?? stackless.pid, loop: f.loop)
            #expect(f.daemon.wait { (try? f.daemon.managerProperty("FocusedStack")?.string) == (front?.stack ?? "/") },
                    "step \(step)")
            // Another app pushes (it becomes the most recently active).
            let other = Int(random.next() % 3)
            try apps[other].process.command(["cmd": "push", "name": "Edit", "undo": "s\(step)", "redo": "r"])
            apps[other].pushed += 1
            guard random.next() % 3 == 0 else { continue }
            if let front {
                // Where undod applied is what it answers: the front app's stack, or
                // nothing to undo there (never another stack).
                do throws(DBusError) {
                    let reply = try f.daemon.manager("UndoFocused")
                    if reply.first?.string != front.stack { wrong += 1 }
                    undone += 1
                } catch {
                    if error.name != undodError("NothingToUndo") { wrong += 1 }
                }
            } else {
                let refused = errorOf { () throws(DBusError) in try f.daemon.manager("UndoFocused") }
                if refused?.name != undodError("NoFocusedStack") { wrong += 1 }
            }
        }
        #expect(wrong == 0)
        #expect(undone > Self.walkSteps / 10)
        // Every apply an app served was its own stack's.
        for app in apps { #expect(app.process.applies.allSatisfy { ($0["stack"] as? String) == app.stack }) }
    }
}
