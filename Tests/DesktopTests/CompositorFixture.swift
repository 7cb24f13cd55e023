import BusHarness
import DBus
import Foundation
import Testing

/// What the suites of the Wayland compositors undod follows (sway, KWin,
/// GNOME Shell) have alike: an undod following a real compositor,
/// applications with windows on it, a way to bring a window in front and
/// the user's undo and redo keys. The scenarios below are the promise every
/// one of them keeps, written once so that all three are held to the same
/// assertions; each suite runs them and adds what is its compositor's own.
protocol CompositorFixture: AnyObject {
    /// The bus and the undod that follows the compositor.
    var daemon: DaemonFixture { get }
    /// The strategy undod names in `FocusStrategy` while it follows this compositor.
    static var strategy: String { get }
    /// An application with a window titled `title` and, with `appId`, a
    /// stack that pushed `pushes` groups (`WaylandApp`), once the
    /// compositor has its window.
    func app(_ appId: String?, title: String, pushes: Int, windowAppId: String?) throws -> WaylandApp
    /// Brings `pid`'s window in front and waits until undod's
    /// `FocusedStack` is `path`; false when it never is.
    @discardableResult
    func focus(_ pid: Int32, expecting path: String) throws -> Bool
    /// Presses the undo key, as the user would.
    func pressUndo() throws
    /// Presses the redo key, as the user would.
    func pressRedo() throws
}

extension CompositorFixture {
    /// Focus is the window in front, not the most recent activity: the
    /// trigger undoes in the application in front, never in one behind,
    /// and refuses by name in front of a window with no stack.
    func focusFollowsTheWindowInFrontAndTheTriggerUndoesOnlyThere() throws {
        #expect(daemon.wait(timeout: 30_000) { (try? self.daemon.managerProperty("FocusStrategy")?.string) == Self.strategy },
                "\(daemon.daemon.log)")
        let a = try app("org.example.A", title: "Alpha", pushes: 2, windowAppId: nil)
        let b = try app("org.example.B", title: "Beta", pushes: 2, windowAppId: nil)
        let terminal = try app(nil, title: "Terminal", pushes: 0, windowAppId: nil)
        #expect(try focus(a.pid, expecting: a.stack))
        #expect(try daemon.manager("UndoFocused").first?.string == a.stack)
        #expect(try a.process.nextApply().payloads == ["u2"])
        // B pushes (the most recent activity), yet A is in front.
        try b.process.command(["cmd": "push", "name": "Edit 3", "undo": "u3", "redo": "r3"])
        #expect(try daemon.manager("UndoFocused").first?.string == a.stack)
        #expect(try a.process.nextApply().payloads == ["u1"])
        #expect(try focus(b.pid, expecting: b.stack))
        #expect(try focus(terminal.pid, expecting: "/"))
        let refused = errorOf { () throws(DBusError) in try daemon.manager("UndoFocused") }
        #expect(refused?.name == undodError("NoFocusedStack"))
        #expect(refused?.message.contains("(pid \(terminal.pid)), has no undo history") == true, "\(refused?.message ?? "")")
        #expect(b.process.applies.isEmpty)
    }

    /// A process that takes the compositor's bus name (GNOME Shell lets it
    /// be replaced) is not the compositor: its `ReportFocus` is refused,
    /// and the window it names never gets the focus.
    func aProcessHoldingTheCompositorsNameIsNotHeard(busName: String) throws {
        // B first: should the name change leave undod guessing (`recent`), A is still its guess.
        let b = try app("org.example.B", title: "Beta", pushes: 1, windowAppId: nil)
        let a = try app("org.example.A", title: "Alpha", pushes: 1, windowAppId: nil)
        #expect(try focus(a.pid, expecting: a.stack))
        let run = try runTool(["/usr/bin/python3", Repository.client("name_thief.py"), daemon.bus.address, busName,
                               "\(b.pid)", "org.example.B"], loop: daemon.loop)
        let report = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any] ?? [:]
        if busName == "org.gnome.Shell" {
            // The Shell lets its name be replaced: the thief holds it (1, primary owner) when it reports.
            #expect(report["request"] as? Int == 1, "\(run.output) \(run.errors)")
        }
        #expect(report["error"] as? String == undodError("NotAllowed"), "\(run.output) \(run.errors)")
        try daemon.ping()
        #expect(try daemon.managerProperty("FocusedStack")?.string != b.stack)
        #expect(b.process.applies.isEmpty)
    }

    /// The keys undo and redo in the window in front, and only there.
    func theKeysUndoAndRedoInTheWindowInFront() throws {
        let a = try app("org.example.A", title: "Alpha", pushes: 2, windowAppId: nil)
        let b = try app("org.example.B", title: "Beta", pushes: 2, windowAppId: nil)
        #expect(try focus(b.pid, expecting: b.stack))
        try pressUndo()
        #expect(try b.process.nextApply().payloads == ["u2"])
        #expect(try focus(a.pid, expecting: a.stack))
        try pressUndo()
        #expect(try a.process.nextApply().payloads == ["u2"])
        try pressRedo()
        #expect(try a.process.nextApply().payloads == ["r2"])
        #expect(b.process.applies.count == 1)
    }

    /// A window that calls itself by another application's id is not that
    /// application: a key pressed while it is in front undoes nothing there.
    func aWindowCallingItselfByAnotherAppsIdGetsNothing() throws {
        let a = try app("org.example.A", title: "Alpha", pushes: 2, windowAppId: nil)
        let spoof = try app(nil, title: "Alpha?", pushes: 0, windowAppId: "org.example.A")
        #expect(try focus(a.pid, expecting: a.stack))
        #expect(try focus(spoof.pid, expecting: "/"))
        try pressUndo()
        // The compositor's word arrives in order: the press above before the focus below.
        #expect(try focus(a.pid, expecting: a.stack))
        try pressUndo()
        #expect(try a.process.nextApply().payloads == ["u2"])
        // The spoof's press undid nothing in A: one step is left there.
        #expect(try daemon.manager("UndoFocused").last?.string == "Edit 1")
    }
}
