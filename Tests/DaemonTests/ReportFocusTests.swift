import BusHarness
import DBus
import Foundation
import Loop
import Testing
import Undo1
import Undo1Wire

/// `ReportFocus` and the `kwin`/`gnome` strategies on a private bus: a
/// stand-in compositor (the test process, serving a stand-in Wayland
/// socket) owns `org.kde.KWin` (or `org.gnome.Shell`) and reports the window
/// in front by process; applications are separate processes (`x11_app.py`
/// on the bus alone), so each has a PID of its own. The trigger undoes only
/// in the process reported in front; a report is accepted only from the
/// name's owner, and only when its process serves the Wayland display.
@Suite struct ReportFocusTests {
    /// undod in a Wayland session whose display's socket this test process
    /// serves (its connections may stand in for the compositor).
    static func fixture(config: String = "", environment: [String: String] = [:]) throws
        -> (DaemonFixture, ListeningSocket) {
        let socket = try ListeningSocket(named: "wayland-0", inDirectoryStartingWith: "undod-wl-")
        let f = try DaemonFixture(config: config, environment: ["WAYLAND_DISPLAY": socket.path].merging(environment) { $1 })
        return (f, socket)
    }

    /// An application process registered as `appId`, having pushed `pushes`
    /// groups ("u1", "u2", … to undo); its pid and stack.
    static func app(_ f: DaemonFixture, _ appId: String, pushes: Int) throws
        -> (process: ScriptedProcess, pid: UInt32, stack: String) {
        let process = try ScriptedProcess(["/usr/bin/python3", Repository.client("x11_app.py"), "--bus", f.bus.address],
                                          environment: ["DISPLAY": ""], loop: f.loop)
        let ready = try process.next(event: "ready")
        let stack = try process.command(["cmd": "register", "app_id": appId, "options": ["title": appId]])["path"]
            as? String ?? ""
        for index in 0..<pushes {
            try process.command(["cmd": "push", "name": "Edit \(index + 1)", "undo": "u\(index + 1)", "redo": "r\(index + 1)"])
        }
        return (process, UInt32(ready["pid"] as? Int ?? 0), stack)
    }

    /// A connection owning `name`: the stand-in compositor.
    static func compositor(_ f: DaemonFixture, owning name: String) throws -> TestApp {
        let compositor = try f.app()
        #expect(try compositor.connection.requestName(name))
        return compositor
    }

    static func report(_ compositor: TestApp, pid: UInt32, appId: String = "", sandbox: String = "") throws(DBusError) {
        _ = try compositor.connection.callAndWait(try Undo1Call.reportFocus(pid: pid, appId: appId, sandboxAppId: sandbox))
    }

    /// undod with `strategy`, one app with a group, and the compositor owning
    /// `name` having reported that app in front.
    static func reportedInFront(_ strategy: String, compositor name: String) throws
        -> (DaemonFixture, (process: ScriptedProcess, pid: UInt32, stack: String), TestApp, ListeningSocket) {
        let (f, wayland) = try fixture(config: "[focus]\nstrategy = \(strategy)\n")
        let a = try app(f, "org.example.A", pushes: 1)
        let reporter = try compositor(f, owning: name)
        try report(reporter, pid: a.pid)
        #expect(waitForFocus(f, a.stack))
        return (f, a, reporter, wayland)
    }

    /// Waits until `FocusedStack` reads `path`.
    static func waitForFocus(_ f: DaemonFixture, _ path: String) -> Bool {
        f.wait { (try? f.managerProperty("FocusedStack")?.string) == path }
    }

    @Test func onlyTheCompositorMayReport() throws {
        let (f, wayland) = try Self.fixture(config: "[focus]\nstrategy = kwin\n")
        defer { withExtendedLifetime(wayland) {} }
        let stranger = try f.app()
        let refused = errorOf { () throws(DBusError) in try Self.report(stranger, pid: 1) }
        #expect(refused?.name == undodError("NotAllowed"))
        #expect(refused?.message.contains("org.kde.KWin") == true)
        // Owning the name makes the same call welcome.
        let kwin = try Self.compositor(f, owning: "org.kde.KWin")
        try Self.report(kwin, pid: 1)
        // GNOME Shell's owner may report too (for the gnome strategy); a
        // connection that owns neither, never.
        let shell = try Self.compositor(f, owning: "org.gnome.Shell")
        try Self.report(shell, pid: 1)
        #expect(errorOf { () throws(DBusError) in try Self.report(stranger, pid: 1) }?.name == undodError("NotAllowed"))
    }

    @Test func thePidMayComeAsKWinsScriptEngineSendsIt() throws {
        let (f, wayland) = try Self.fixture(config: "[focus]\nstrategy = kwin\n")
        defer { withExtendedLifetime(wayland) {} }
        let a = try Self.app(f, "org.example.A", pushes: 1)
        let kwin = try Self.compositor(f, owning: "org.kde.KWin")
        let call = { (pid: DBusValue) throws(DBusError) in
            _ = try kwin.connection.callAndWait(try Message.methodCall(
                destination: "org.undod.Undo1", path: "/org/undod/Undo1", interface: "org.undod.Undo1.Manager",
                member: "ReportFocus", arguments: [pid, .string("org.example.A"), .string("")]))
        }
        // KWin's engine sends whole numbers as int32 (and may send a double).
        try call(.int32(Int32(a.pid)))
        #expect(Self.waitForFocus(f, a.stack))
        try call(.double(0))
        #expect(Self.waitForFocus(f, "/"))
        try call(.double(Double(a.pid)))
        #expect(Self.waitForFocus(f, a.stack))
        // No process has a negative or fractional number; focus stays.
        for bad in [DBusValue.int32(-1), .double(1.5), .string("1")] {
            let refused = errorOf { () throws(DBusError) in try call(bad) }
            #expect(refused?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        }
        #expect(try f.managerProperty("FocusedStack")?.string == a.stack)
    }

    @Test func theTriggerUndoesOnlyInTheProcessKWinReportsInFront() throws {
        let (f, wayland) = try Self.fixture(config: "[focus]\nstrategy = kwin\n")
        defer { withExtendedLifetime(wayland) {} }
        #expect(try f.managerProperty("FocusStrategy")?.string == "kwin")
        let a = try Self.app(f, "org.example.A", pushes: 2)
        let b = try Self.app(f, "org.example.B", pushes: 2)
        // Before KWin says anything, nothing is focused, and the refusal says why.
        let early = errorOf { () throws(DBusError) in try f.manager("UndoFocused") }
        #expect(early?.name == undodError("NoFocusedStack"))
        #expect(early?.message.contains("org.kde.KWin") == true)

        let kwin = try Self.compositor(f, owning: "org.kde.KWin")
        try Self.report(kwin, pid: a.pid, appId: "org.example.A")
        #expect(Self.waitForFocus(f, a.stack))
        #expect(try f.manager("UndoFocused").first?.string == a.stack)
        #expect(try a.process.nextApply().payloads == ["u2"])

        // B pushes (it was active last), yet A stays in front.
        try b.process.command(["cmd": "push", "name": "Edit 3", "undo": "u3", "redo": "r3"])
        #expect(try f.manager("UndoFocused").first?.string == a.stack)
        #expect(try a.process.nextApply().payloads == ["u1"])

        try Self.report(kwin, pid: b.pid, appId: "org.example.B")
        #expect(Self.waitForFocus(f, b.stack))
        #expect(try f.manager("UndoFocused").first?.string == b.stack)
        #expect(try b.process.nextApply().payloads == ["u3"])
        #expect(a.process.applies.count == 2)
    }

    @Test func aWindowWithoutHistoryOrWithAnotherAppsIdFocusesNothing() throws {
        let (f, a, kwin, wayland) = try Self.reportedInFront("kwin", compositor: "org.kde.KWin")
        defer { withExtendedLifetime(wayland) {} }
        // A terminal in front (this test's own process owns no stack) that
        // calls itself org.example.A: the app id is no evidence.
        let terminal = UInt32(getpid())
        try Self.report(kwin, pid: terminal, appId: "org.example.A")
        #expect(Self.waitForFocus(f, "/"))
        let refused = errorOf { () throws(DBusError) in try f.manager("UndoFocused") }
        #expect(refused?.name == undodError("NoFocusedStack"))
        #expect(refused?.message.contains("(pid \(terminal)), has no undo history") == true, "\(refused?.message ?? "")")
        // No window in front.
        try Self.report(kwin, pid: 0)
        #expect(errorOf { () throws(DBusError) in try f.manager("UndoFocused") }?.message
                    .contains("no window has focus") == true)
        #expect(a.process.applies.isEmpty)
    }

    @Test func aCompositorThatLeavesTakesItsReportWithIt() throws {
        let (f, a, shell, wayland) = try Self.reportedInFront("gnome", compositor: "org.gnome.Shell")
        defer { withExtendedLifetime(wayland) {} }
        _ = a
        shell.quit()
        #expect(Self.waitForFocus(f, "/"))
        #expect(errorOf { () throws(DBusError) in try f.manager("UndoFocused") }?.message
                    .contains("org.gnome.Shell is not on the bus") == true)
    }

    @Test func autoTrustsACompositorOnlyWhereTheDesktopNamesIt() throws {
        // KDE named: recent until KWin reports, then kwin.
        let (kde, kdeDisplay) = try Self.fixture(environment: ["XDG_CURRENT_DESKTOP": "KDE"])
        defer { withExtendedLifetime(kdeDisplay) {} }
        #expect(try kde.managerProperty("FocusStrategy")?.string == "recent")
        let a = try Self.app(kde, "org.example.A", pushes: 1)
        let b = try Self.app(kde, "org.example.B", pushes: 1)
        let kwin = try Self.compositor(kde, owning: "org.kde.KWin")
        try Self.report(kwin, pid: a.pid)
        #expect(kde.wait { (try? kde.managerProperty("FocusStrategy")?.string) == "kwin" })
        #expect(Self.waitForFocus(kde, a.stack), "B registered last, but A is in front")
        _ = b

        // GNOME named: KWin's reports are not trusted, auto stays recent.
        let (gnome, gnomeDisplay) = try Self.fixture(environment: ["XDG_CURRENT_DESKTOP": "GNOME"])
        defer { withExtendedLifetime(gnomeDisplay) {} }
        let c = try Self.app(gnome, "org.example.C", pushes: 1)
        let d = try Self.app(gnome, "org.example.D", pushes: 1)
        let impostor = try Self.compositor(gnome, owning: "org.kde.KWin")
        try Self.report(impostor, pid: c.pid)
        try gnome.ping()
        #expect(try gnome.managerProperty("FocusStrategy")?.string == "recent")
        #expect(try gnome.managerProperty("FocusedStack")?.string == d.stack)
    }

    @Test func aProcessThatTakesTheCompositorsNameIsNotTheCompositor() throws {
        let (f, wayland) = try Self.fixture(config: "[focus]\nstrategy = gnome\n")
        defer { withExtendedLifetime(wayland) {} }
        let a = try Self.app(f, "org.example.A", pushes: 1)
        let b = try Self.app(f, "org.example.B", pushes: 1)
        let shell = try Self.compositor(f, owning: "org.gnome.Shell")
        try Self.report(shell, pid: a.pid)
        #expect(Self.waitForFocus(f, a.stack))
        // The Shell goes; another process takes its name and reports B in front.
        shell.quit()
        #expect(Self.waitForFocus(f, "/"))
        let run = try runTool(["/usr/bin/python3", Repository.client("name_thief.py"), f.bus.address, "org.gnome.Shell",
                               "\(b.pid)", "org.example.B"], loop: f.loop)
        let report = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any] ?? [:]
        #expect(report["request"] as? Int == 1, "it owns the name: \(run.output) \(run.errors)")
        #expect(report["error"] as? String == undodError("NotAllowed"), "\(report)")
        #expect((report["message"] as? String)?.contains("not the process serving the Wayland display") == true)
        #expect(try f.managerProperty("FocusedStack")?.string != b.stack)
        #expect(throws: DBusError.self) { try f.manager("UndoFocused") }
        #expect(b.process.applies.isEmpty, "the key never reached B")
    }

    @Test func anX11SessionTakesNoReports() throws {
        let f = try DaemonFixture(config: "[focus]\nstrategy = gnome\n", environment: ["XDG_CURRENT_DESKTOP": "GNOME"])
        let a = try Self.app(f, "org.example.A", pushes: 1)
        let shell = try Self.compositor(f, owning: "org.gnome.Shell")
        let refused = errorOf { () throws(DBusError) in try Self.report(shell, pid: a.pid) }
        #expect(refused?.name == undodError("NotAllowed"))
        #expect(refused?.message.contains("X11 session") == true, "\(refused?.message ?? "")")
        #expect(try f.managerProperty("FocusedStack")?.string != a.stack)
    }

    @Test func setFocusChoosesOnlyAmongTheStacksOfTheWindowInFront() throws {
        let (f, a, kwin, wayland) = try Self.reportedInFront("kwin", compositor: "org.kde.KWin")
        defer { withExtendedLifetime(wayland) {} }
        let b = try Self.app(f, "org.example.B", pushes: 1)
        // A second document of the process in front may be chosen; B's stack may not.
        let second = try a.process.command(["cmd": "register", "app_id": "org.example.A",
                                            "options": ["title": "A, second", "document": "/tmp/second.txt"]])["path"]
            as? String ?? ""
        try a.process.command(["cmd": "push", "name": "Second 1", "undo": "s1", "redo": "r1", "stack": second])
        try Self.report(kwin, pid: a.pid)
        let refused = errorOf { () throws(DBusError) in try f.manager("SetFocus", [.objectPath(b.stack)]) }
        #expect(refused?.name == undodError("NotAllowed"))
        #expect(refused?.message.contains("(pid \(a.pid))") == true, "names the window in front: \(refused?.message ?? "")")
        #expect(try f.managerProperty("FocusedStack")?.string != b.stack)
        _ = try f.manager("SetFocus", [.objectPath(second)])
        #expect(Self.waitForFocus(f, second))
        #expect(try f.manager("UndoFocused").first?.string == second)
        #expect(try a.process.nextApply().payloads == ["s1"])
        #expect(b.process.applies.isEmpty)
    }
}
