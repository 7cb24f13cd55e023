import BusHarness
import DBus
import Foundation
import Rig
import Testing

/// The `x11` strategy on a real X server (Xvfb) with a real EWMH window
/// manager (openbox), windows owned by separate processes, and xdotool as
/// the user's hand: the focused stack is the active window's application's,
/// and a trigger never undoes in an application the user is not looking at.
@Suite struct X11FocusTests {
    @Test func focusFollowsTheActiveWindow() throws {
        let f = try DesktopFixture()
        #expect(try f.daemon.managerProperty("FocusStrategy")?.string == "x11")
        let a = try f.app("org.example.A", title: "Alpha", pushes: 1)
        let b = try f.app("org.example.B", title: "Beta", pushes: 1)
        try f.desktop.activate(a.window, loop: f.loop)
        #expect(try f.waitForFocus(a.stack))
        try f.desktop.activate(b.window, loop: f.loop)
        #expect(try f.waitForFocus(b.stack))
        try f.desktop.activate(a.window, loop: f.loop)
        #expect(try f.waitForFocus(a.stack))
        // B pushed last, yet the undo goes to A, whose window is in front.
        let reply = try f.daemon.manager("UndoFocused")
        #expect(reply.first?.string == a.stack)
        #expect(try a.process.nextApply().payloads == ["u1"])
        #expect(b.process.applies.isEmpty)
    }

    @Test func aWindowWithoutAStackFocusesNothing() throws {
        let f = try DesktopFixture()
        let a = try f.app("org.example.A", title: "Alpha", pushes: 2)
        let stackless = try f.app(bus: false)
        let window = try stackless.command(["cmd": "window", "name": "main", "title": "Terminal"])["xid"] as? Int ?? 0
        try f.desktop.activate(a.window, loop: f.loop)
        #expect(try f.waitForFocus(a.stack))
        try f.desktop.activate(window, loop: f.loop)
        #expect(try f.waitForFocus("/"))
        #expect(errorOf { () throws(DBusError) in try f.daemon.manager("UndoFocused") }?.name == undodError("NoFocusedStack"))
        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        #expect(f.waitForLogKey("trigger.refused", holding: "Ctrl+Alt+z"))
        #expect(a.process.applies.isEmpty)
    }

    @Test func anAppThatDeclaresAnotherAppsWindowNeverTakesItsUndo() throws {
        let f = try DesktopFixture()
        let notes = try f.app("org.example.Notes", title: "Notes", pushes: 3)
        // A hostile app declares Notes' window as its own and keeps saying
        // it is active, as the probe did (it got 5 of 5 global undos).
        let thief = try f.app()
        let stolen = try thief.command(["cmd": "register", "app_id": "org.example.Thief",
                                        "options": ["title": "Thief", "windows": [notes.window]]])["path"] as? String ?? ""
        try thief.command(["cmd": "push", "name": "Bait", "undo": "t1", "redo": "t1r"])
        try f.desktop.activate(notes.window, loop: f.loop)
        #expect(try f.waitForFocus(notes.stack))
        for press in 1...3 {
            try thief.command(["cmd": "activate"])
            #expect(try f.focusedStack() == notes.stack, "focus stays with the window's own process (round \(press))")
            try f.desktop.press("ctrl+alt+z", loop: f.loop)
            #expect(try notes.process.nextApply().payloads == ["u\(4 - press)"])
        }
        #expect(thief.applies.isEmpty, "the thief got nothing")
        #expect(stolen != notes.stack)
    }

    @Test func aDeclaredWindowOfAnotherProcessAndItsDialogFocusTheDeclaringApp() throws {
        let f = try DesktopFixture()
        // One process owns the windows, another (as in a sandbox) the stack.
        let windows = try f.app(bus: false)
        let main = try windows.command(["cmd": "window", "name": "main", "title": "Sandboxed"])["xid"] as? Int ?? 0
        let dialog = try windows.command(["cmd": "window", "name": "dialog", "title": "Save as",
                                          "transient_for": "main", "set_pid": false])["xid"] as? Int ?? 0
        let helper = try f.app()
        let stack = try helper.command(["cmd": "register", "app_id": "org.example.Sandboxed",
                                        "options": ["title": "Sandboxed", "windows": [main]]])["path"] as? String ?? ""
        for index in 1...2 {
            try helper.command(["cmd": "push", "name": "Edit \(index)", "undo": "u\(index)", "redo": "r\(index)"])
        }
        let decoy = try f.app("org.example.Decoy", title: "Decoy", pushes: 1)

        try f.desktop.activate(main, loop: f.loop)
        #expect(try f.waitForFocus(stack))
        #expect(try f.daemon.manager("UndoFocused").first?.string == stack)
        #expect(try helper.nextApply().payloads == ["u2"])

        try f.desktop.activate(decoy.window, loop: f.loop)
        #expect(try f.waitForFocus(decoy.stack))
        try f.desktop.activate(dialog, loop: f.loop)
        #expect(try f.waitForFocus(stack))
        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        #expect(try helper.nextApply().payloads == ["u1"])
        #expect(decoy.process.applies.isEmpty)
    }

    @Test func aDialogWithoutAProcessIDFocusesTheAppOfItsParent() throws {
        let f = try DesktopFixture()
        let a = try f.app("org.example.A", title: "Alpha", pushes: 1)
        let dialog = try a.process.command(["cmd": "window", "name": "dialog", "title": "Find",
                                            "transient_for": "main", "set_pid": false])["xid"] as? Int ?? 0
        let b = try f.app("org.example.B", title: "Beta", pushes: 1)
        try f.desktop.activate(b.window, loop: f.loop)
        #expect(try f.waitForFocus(b.stack))
        try f.desktop.activate(dialog, loop: f.loop)
        #expect(try f.waitForFocus(a.stack))
    }

    @Test func aWindowClaimingAnotherProcessIsKnownByTheProcessThatMadeIt() throws {
        let f = try DesktopFixture()
        let a = try f.app("org.example.A", title: "Alpha", pushes: 1)
        let pid = try #require(a.process.all(event: "ready").first?["pid"] as? Int)
        // Another program's window says it is A's (_NET_WM_PID); the X
        // server knows which process made it (X-Resource), and that one has no stack.
        let liar = try f.app(bus: false)
        let window = try liar.command(["cmd": "window", "name": "main", "title": "Not Alpha", "pid": pid])["xid"] as? Int ?? 0
        try f.desktop.activate(a.window, loop: f.loop)
        #expect(try f.waitForFocus(a.stack))
        try f.desktop.activate(window, loop: f.loop)
        #expect(try f.waitForFocus("/"))
        #expect(errorOf { () throws(DBusError) in try f.daemon.manager("UndoFocused") }?.name == undodError("NoFocusedStack"))
        #expect(a.process.applies.isEmpty)
    }

    @Test func withX11AndNoWindowManagerNothingIsFocused() throws {
        let f = try DesktopFixture(config: "[focus]\nstrategy = x11\n")
        let a = try f.app("org.example.A", title: "Alpha", pushes: 1)
        try f.desktop.activate(a.window, loop: f.loop)
        #expect(try f.waitForFocus(a.stack))
        // The window manager ends; _NET_ACTIVE_WINDOW stays behind, stale.
        f.desktop.stopWindowManager()
        #expect(try f.waitForFocus("/"))
        #expect(errorOf { () throws(DBusError) in try f.daemon.manager("UndoFocused") }?.name == undodError("NoFocusedStack"))
        #expect(try f.daemon.managerProperty("FocusStrategy")?.string == "x11")
        #expect(a.process.applies.isEmpty)
    }

    @Test func activityOrdersOnlyTheStacksOfTheProcessInFront() throws {
        let f = try DesktopFixture()
        let a = try f.app("org.example.A", title: "Alpha", pushes: 1)
        let second = try a.process.command(["cmd": "register", "app_id": "org.example.A",
                                            "options": ["document": "two.txt", "title": "Two"]])["path"] as? String ?? ""
        let b = try f.app("org.example.B", title: "Beta", pushes: 1)
        try f.desktop.activate(a.window, loop: f.loop)
        // A's second document registered last: it is A's most recently active stack.
        #expect(try f.waitForFocus(second))
        try a.process.command(["cmd": "activate", "stack": a.stack])
        #expect(try f.waitForFocus(a.stack))
        // B's activity orders B's stacks only: focus stays in A, whose window is in front.
        try b.process.command(["cmd": "activate"])
        try b.process.command(["cmd": "push", "name": "Later", "undo": "x", "redo": "y"])
        try f.daemon.ping()
        #expect(try f.focusedStack() == a.stack)
    }

    /// Under an X11 session that calls itself GNOME (Budgie, GNOME
    /// Flashback: no Shell), a process that takes `org.gnome.Shell` is not
    /// heard: `auto` stays `x11`, and the key undoes in the window in front.
    @Test func aProcessTakingTheShellsNameOnX11SteersNothing() throws {
        let f = try DesktopFixture(environment: ["XDG_CURRENT_DESKTOP": "GNOME"])
        let a = try f.app("org.example.A", title: "Alpha", pushes: 1)
        let b = try f.app("org.example.B", title: "Beta", pushes: 1)
        try f.desktop.activate(a.window, loop: f.loop)
        #expect(try f.waitForFocus(a.stack))
        let run = try runTool(["/usr/bin/python3", Repository.client("name_thief.py"), f.bus.address,
                               "org.gnome.Shell", "\(b.process.process.processIdentifier)", "org.example.B"], loop: f.loop)
        let report = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any] ?? [:]
        #expect(report["request"] as? Int == 1, "\(run.output) \(run.errors)")
        #expect(report["error"] as? String == undodError("NotAllowed"), "\(run.output) \(run.errors)")
        try f.daemon.ping()
        #expect(try f.daemon.managerProperty("FocusStrategy")?.string == "x11")
        #expect(try f.focusedStack() == a.stack)
        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        #expect(try a.process.nextApply().payloads == ["u1"])
        #expect(b.process.applies.isEmpty)
    }

    @Test func setFocusPinsAmongTheActiveWindowsStacksUntilItChanges() throws {
        let f = try DesktopFixture()
        let a = try f.app("org.example.A", title: "Alpha", pushes: 1)
        let b = try f.app("org.example.B", title: "Beta", pushes: 1)
        // A second document of A's process, then activity in the first: the first is A's most recent.
        let second = try a.process.command(["cmd": "register", "app_id": "org.example.A",
                                            "options": ["title": "Alpha 2", "document": "/tmp/alpha-2.txt"]])["path"]
            as? String ?? ""
        try a.process.command(["cmd": "push", "name": "Edit 2", "undo": "u2", "redo": "r2", "stack": a.stack])
        try f.desktop.activate(a.window, loop: f.loop)
        #expect(try f.waitForFocus(a.stack))
        // The window in front decides: B's stack is not one of its stacks.
        let refused = errorOf { () throws(DBusError) in try f.daemon.manager("SetFocus", [.objectPath(b.stack)]) }
        #expect(refused?.name == undodError("NotAllowed"))
        #expect(refused?.message.contains("the window in front is") == true, "\(refused?.message ?? "")")
        _ = try f.daemon.manager("SetFocus", [.objectPath(second)])
        #expect(try f.focusedStack() == second)
        try f.desktop.activate(b.window, loop: f.loop)
        #expect(try f.waitForFocus(b.stack))
        try f.desktop.activate(a.window, loop: f.loop)
        #expect(try f.waitForFocus(a.stack), "the pin ended when the active window changed")
    }

    /// A seeded random walk over several applications and windows — windows
    /// matched by process, a dialog without a process id, windows declared
    /// by another process, and a window with no stack — triggered by the
    /// key and by `UndoFocused`: every undo reaches the application in front,
    /// and only it.
    @Test(arguments: [UInt64(0x5EED_0001)])
    func aRandomWalkNeverUndoesOutsideTheActiveApplication(seed: UInt64) throws {
        let f = try DesktopFixture()
        let pushes = 40
        let a = try f.app("org.example.A", title: "Alpha", pushes: pushes)
        let aSecond = try a.process.command(["cmd": "window", "name": "second", "title": "Alpha 2"])["xid"] as? Int ?? 0
        let b = try f.app("org.example.B", title: "Beta", pushes: pushes)
        let bDialog = try b.process.command(["cmd": "window", "name": "dialog", "title": "Beta dialog",
                                             "transient_for": "main", "set_pid": false])["xid"] as? Int ?? 0
        let owner = try f.app(bus: false)
        let c1 = try owner.command(["cmd": "window", "name": "one", "title": "Gamma"])["xid"] as? Int ?? 0
        let c2 = try owner.command(["cmd": "window", "name": "two", "title": "Gamma 2"])["xid"] as? Int ?? 0
        let c = try f.app()
        let cStack = try c.command(["cmd": "register", "app_id": "org.example.C",
                                    "options": ["title": "Gamma", "windows": [c1, c2]]])["path"] as? String ?? ""
        for index in 1...pushes {
            try c.command(["cmd": "push", "name": "Edit \(index)", "undo": "u\(index)", "redo": "r\(index)"])
        }
        let stackless = try f.app(bus: false)
        let none = try stackless.command(["cmd": "window", "name": "main", "title": "Terminal"])["xid"] as? Int ?? 0

        let apps: [(process: ScriptedProcess, stack: String)] = [(a.process, a.stack), (b.process, b.stack), (c, cStack)]
        let windows: [(window: Int, app: Int?)] = [(a.window, 0), (aSecond, 0), (b.window, 1), (bDialog, 1),
                                                   (c1, 2), (c2, 2), (none, nil)]
        var random = SplitMix64(seed: seed)
        var undone = [0, 0, 0]
        var refusedByKey = 0
        for step in 0..<36 {
            let (window, expected) = windows[random.below(windows.count)]
            let byKey = random.below(2) == 0
            let context = "seed \(seed), step \(step): window \(window), app \(expected.map(String.init) ?? "none")"
            try f.desktop.activate(window, loop: f.loop)
            try #require(try f.waitForFocus(expected.map { apps[$0].stack } ?? "/"), "\(context)")
            if let expected {
                if byKey {
                    try f.desktop.press("ctrl+alt+z", loop: f.loop)
                } else {
                    #expect(try f.daemon.manager("UndoFocused").first?.string == apps[expected].stack, "\(context)")
                }
                let applied = try apps[expected].process.nextApply()
                undone[expected] += 1
                #expect(applied.payloads == ["u\(pushes + 1 - undone[expected])"], "\(context)")
            } else if byKey {
                refusedByKey += 1
                try f.desktop.press("ctrl+alt+z", loop: f.loop)
                #expect(f.waitForLogKey("trigger.refused", holding: "Ctrl+Alt+z", count: refusedByKey), "\(context)")
            } else {
                #expect(errorOf { () throws(DBusError) in try f.daemon.manager("UndoFocused") }?.name == undodError("NoFocusedStack"),
                        "\(context)")
            }
            try f.daemon.ping()
            #expect(apps.map { $0.process.applies.count } == undone, "\(context)")
        }
    }
}
