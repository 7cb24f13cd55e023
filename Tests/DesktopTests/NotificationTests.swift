import BusHarness
import DBus
import Foundation
import Loop
import Testing

/// The notification after a triggered undo or redo, shown by a real
/// notification server (dunst) on the test's bus and pressed with
/// `dunstctl action` (which invokes the default action, the first button).
@Suite struct NotificationTests {
    /// `dunstctl` on the fixture's bus.
    @discardableResult
    static func dunstctl(_ f: DesktopFixture, _ arguments: String...) throws -> String {
        try f.desktop.tool(["dunstctl"] + arguments, bus: f.bus, loop: f.loop)
    }

    /// How many notifications dunst shows now.
    static func displayed(_ f: DesktopFixture) throws -> Int {
        Int(try dunstctl(f, "count", "displayed").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// The notifications undod asked the server for with `summary`.
    static func notifications(_ f: DesktopFixture, _ summary: String) -> [NotificationMonitor.Notification] {
        (f.notifications?.notifications ?? []).filter { $0.summary == summary }
    }

    /// A desktop with dunst, and "Notes" in front with two changes, the
    /// second undone by the key and notified; `before` starts other apps
    /// first.
    static func undoneByTheKey(before: (DesktopFixture) throws -> Void = { _ in })
        throws -> (DesktopFixture, (process: ScriptedProcess, window: Int, stack: String)) {
        let f = try DesktopFixture(notifications: true)
        let notes = try f.app("org.example.Notes", title: "Notes", pushes: 2)
        try before(f)
        try f.desktop.activate(notes.window, loop: f.loop)
        #expect(try f.waitForFocus(notes.stack))
        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        #expect(try notes.process.nextApply() == ("undo", ["u2"]))
        #expect(f.waitForNotification("Undid Edit 2 in Notes"))
        return (f, notes)
    }

    @Test func anUndoByTheKeyIsNotifiedAndItsRedoButtonRedoesThatGroup() throws {
        var started: (process: ScriptedProcess, window: Int, stack: String)?
        let (f, notes) = try Self.undoneByTheKey { f in started = try f.app("org.example.Other", title: "Other", pushes: 1) }
        let other = try #require(started)
        #expect(try Self.displayed(f) == 1)

        // The user moves on to another window, then presses Redo: the
        // group that was undone comes back, in its own application.
        try f.desktop.activate(other.window, loop: f.loop)
        #expect(try f.waitForFocus(other.stack))
        try Self.dunstctl(f, "action")
        #expect(try notes.process.nextApply() == ("redo", ["r2"]))
        #expect(f.waitForNotification("Redid Edit 2 in Notes"))
        #expect(other.process.applies.isEmpty)
        // One notification, reused rather than piled up: the redo replaced the undo's, under its id.
        #expect(try Self.displayed(f) == 1)
        let undid = Self.notifications(f, "Undid Edit 2 in Notes")
        let redid = Self.notifications(f, "Redid Edit 2 in Notes")
        #expect(undid.count == 1 && redid.count == 1, "\(f.notifications?.notifications ?? [])")
        #expect(undid.first?.id != nil && redid.first?.replaces == undid.first?.id && redid.first?.id == undid.first?.id,
                "\(undid) \(redid)")

        // The redo notification's button undoes it again.
        try Self.dunstctl(f, "action")
        #expect(try notes.process.nextApply() == ("undo", ["u2"]))
    }

    @Test func aButtonWhoseGroupIsNoLongerNextDoesNothing() throws {
        let (f, notes) = try Self.undoneByTheKey()
        // A new change empties the redo side: "Edit 2" can no longer be redone.
        try notes.process.command(["cmd": "push", "name": "Edit 3", "undo": "u3", "redo": "r3"])
        try Self.dunstctl(f, "action")
        #expect(f.waitForNotification("Nothing redone"))
        #expect(f.logKeyCount("trigger.refused") == 1)
        try f.daemon.ping()
        #expect(notes.process.applies.count == 1)
    }

    @Test func aButtonDoesNothingOnceTheAppOptsOutOfTheGlobalTrigger() throws {
        let (f, notes) = try Self.undoneByTheKey()
        try notes.process.command(["cmd": "register", "app_id": "org.example.Notes", "options": ["global_trigger": false]])
        try Self.dunstctl(f, "action")
        #expect(f.waitForNotification("Nothing redone"))
        #expect(f.logKeyCount("trigger.refused") == 1)
        try f.daemon.ping()
        #expect(notes.process.applies.count == 1)
    }

    @Test func confirmAsksAboutTheGroupAsItWas() throws {
        let f = try DesktopFixture(config: "[notify]\nconfirm = true\n", notifications: true)
        let notes = try f.app()
        let window = try notes.command(["cmd": "window", "name": "main", "title": "Notes"])["xid"] as? Int ?? 0
        let stack = try notes.command(["cmd": "register", "app_id": "org.example.Notes",
                                       "options": ["title": "Notes"]])["path"] as? String ?? ""
        let typing: [String: Any] = ["merge_key": "typing", "merge_window_ms": 60_000]
        try notes.command(["cmd": "push", "name": "Typing", "undo": "u1", "redo": "r1", "hints": typing])
        try f.desktop.activate(window, loop: f.loop)
        #expect(try f.waitForFocus(stack))
        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        #expect(f.waitForNotification("Undo Typing in Notes?"))
        // Typing goes on while the question shows: it merges into the group asked about.
        try notes.command(["cmd": "push", "name": "Typing", "undo": "u2", "redo": "r2", "hints": typing])
        try Self.dunstctl(f, "action")
        #expect(f.waitForNotification("Nothing undone"))
        #expect(f.logKeyCount("trigger.refused") == 1)
        try f.daemon.ping()
        #expect(notes.applies.isEmpty, "the answer was about less than the group holds now")
    }

    /// A key pressed over an empty history says so in the user's words,
    /// not the protocol's advice to the app's developer.
    @Test func nothingToUndoIsSaidInTheUsersWords() throws {
        let f = try DesktopFixture(notifications: true)
        let monitor = try NotificationMonitor(address: f.bus.address, loop: f.loop)
        let notes = try f.app("org.example.Notes", title: "Notes")
        try f.desktop.activate(notes.window, loop: f.loop)
        #expect(try f.waitForFocus(notes.stack))
        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        #expect(monitor.wait(loop: f.loop) { monitor.bodies.contains("There is nothing to undo in Notes.") },
                "\(monitor.bodies)")
        #expect(!monitor.bodies.contains { $0.contains("push a change") })
    }

    @Test func errorsAreNotifiedBriefly() throws {
        // dunst's own timeout is long: only undod's short one can end it.
        let f = try DesktopFixture(notifications: true, notificationTimeout: 60)
        let stackless = try f.app(bus: false)
        let window = try stackless.command(["cmd": "window", "name": "main", "title": "Terminal"])["xid"] as? Int ?? 0
        try f.desktop.activate(window, loop: f.loop)
        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        #expect(f.waitForNotification("Nothing undone"))
        let start = Date()
        var count = try Self.displayed(f)
        #expect(count == 1)
        while count != 0, Date().timeIntervalSince(start) < 10 {
            _ = f.loop.run(until: { false }, timeoutMilliseconds: 100)
            count = try Self.displayed(f)
        }
        #expect(count == 0, "the error went away by itself")
    }

    @Test func undoFocusedIsNotifiedToo() throws {
        let f = try DesktopFixture(notifications: true)
        let notes = try f.app("org.example.Notes", title: "Notes", pushes: 1)
        try f.desktop.activate(notes.window, loop: f.loop)
        #expect(try f.waitForFocus(notes.stack))
        #expect(try f.daemon.manager("UndoFocused").first?.string == notes.stack)
        #expect(f.waitForNotification("Undid Edit 1 in Notes"))
    }

    @Test func byDefaultTheKeyAsksFirstOnlyWhileFocusIsAGuess() throws {
        // No window manager: focus is recent, a guess, on a display: asked.
        let guess = try DesktopFixture(windowManager: false, notifications: true)
        #expect(try guess.daemon.managerProperty("FocusStrategy")?.string == "recent")
        let notes = try guess.app("org.example.Notes", title: "Notes", pushes: 2)
        try guess.desktop.press("ctrl+alt+z", loop: guess.loop)
        #expect(guess.waitForNotification("Undo Edit 2 in Notes?"))
        try guess.daemon.ping()
        #expect(notes.process.applies.isEmpty, "nothing undone before the answer")
        try Self.dunstctl(guess, "action")
        #expect(try notes.process.nextApply() == ("undo", ["u2"]))

        // With a window manager, x11 knows the window in front: no question.
        let known = try DesktopFixture(notifications: true)
        let other = try known.app("org.example.Notes", title: "Notes", pushes: 2)
        try known.desktop.activate(other.window, loop: known.loop)
        #expect(try known.waitForFocus(other.stack))
        try known.desktop.press("ctrl+alt+z", loop: known.loop)
        #expect(try other.process.nextApply() == ("undo", ["u2"]))
        #expect(known.logKeyCount("confirm.asked") == 0, "nothing asked")
    }

    @Test func confirmModeUndoesOnlyOnTheUndoAnswer() throws {
        let f = try DesktopFixture(config: "[notify]\nconfirm = true\n", notifications: true, notificationTimeout: 2)
        let notes = try f.app("org.example.Notes", title: "Notes", pushes: 3)
        try f.desktop.activate(notes.window, loop: f.loop)
        #expect(try f.waitForFocus(notes.stack))

        // Asked, answered Undo (the default action): undone.
        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        #expect(f.waitForNotification("Undo Edit 3 in Notes?"))
        try f.daemon.ping()
        #expect(notes.process.applies.isEmpty)
        try Self.dunstctl(f, "action")
        #expect(try notes.process.nextApply() == ("undo", ["u3"]))

        // Asked, dismissed: nothing undone.
        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        #expect(f.waitForNotification("Undo Edit 2 in Notes?"))
        try Self.dunstctl(f, "close")
        #expect(f.waitForLogKey("confirm.unanswered", holding: "Edit 2"))

        // Asked, no answer before the notification's timeout: nothing undone.
        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        #expect(f.waitForNotification("Undo Edit 2 in Notes?", count: 2))
        #expect(f.waitForLogKey("confirm.unanswered", holding: "Edit 2", count: 2))
        try f.daemon.ping()
        #expect(notes.process.applies.count == 1)

        // A call (undoctl undo) is answered at once, without asking.
        #expect(try f.daemon.manager("UndoFocused").first?.string == notes.stack)
        #expect(try notes.process.nextApply() == ("undo", ["u2"]))
    }

    @Test func withoutANotificationServerNothingFailsOrWaits() throws {
        let f = try DesktopFixture()
        let notes = try f.app("org.example.Notes", title: "Notes", pushes: 2)
        try f.desktop.activate(notes.window, loop: f.loop)
        #expect(try f.waitForFocus(notes.stack))
        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        #expect(try notes.process.nextApply() == ("undo", ["u2"]))
        #expect(try f.daemon.manager("UndoFocused").first?.string == notes.stack)
        #expect(try notes.process.nextApply() == ("undo", ["u1"]))
        #expect(f.waitForLogKey("trigger.applied", holding: "Edit 2"))
        #expect(f.logKeyCount("notify.failed") <= 1)
    }
}

/// A notification server the bus would start on demand (but cannot): never
/// asked, so never spawned, on any undo; undod notifies only a server that
/// already runs (NoActivatedNotifierTests shows one that could start).
@Suite struct UnstartableNotificationServerTests {
    @Test func aServerTheBusWouldStartIsNeverTried() throws {
        let services = FileManager.default.temporaryDirectory
            .appendingPathComponent("undod-services-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: services) }
        try "[D-BUS Service]\nName=org.freedesktop.Notifications\nExec=/bin/false\n"
            .write(to: services.appendingPathComponent("org.freedesktop.Notifications.service"),
                   atomically: false, encoding: .utf8)
        let f = try DaemonFixture(services: services)
        let monitor = try NotificationMonitor(address: f.bus.address, loop: f.loop)
        let notes = try f.app("org.example.Notes", pushing: ["Edit 1", "Edit 2", "Edit 3"])
        for _ in 0..<3 { #expect(try f.manager("UndoFocused").first?.string == notes.stack) }
        // Focus moves to it after the undos: what undod sent before, the monitor has seen.
        let sentinel = try f.app("org.example.Sentinel")
        #expect(monitor.wait(loop: f.loop) { monitor.announced("FocusedStack").last == sentinel.stack },
                "\(monitor.announced("FocusedStack"))")
        #expect(monitor.notifications.isEmpty, "\(monitor.notifications)")
    }
}
