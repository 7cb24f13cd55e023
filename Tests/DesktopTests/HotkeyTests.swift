import BusHarness
import DBus
import Foundation
import Loop
import Testing

/// The global keys on X11: a passive grab on the root window, pressed with
/// xdotool (XTEST) on a real X server, whatever the lock keys, kept across
/// keyboard mapping changes, and reported — not fatal — when another
/// program holds a key already.
@Suite struct HotkeyTests {
    /// The lock keys `xset q` reports as on.
    static func locks(_ f: DesktopFixture) throws -> Set<String> {
        let report = try f.desktop.tool(["xset", "q"], loop: f.loop)
        return Set(["Caps Lock", "Num Lock"].filter { report.range(of: "\($0):\\s+on", options: .regularExpression) != nil })
    }

    @Test func theKeysUndoAndRedoWhateverTheLocks() throws {
        let f = try DesktopFixture()
        let a = try f.app("org.example.A", title: "Alpha", pushes: 3)
        try f.desktop.activate(a.window, loop: f.loop)
        #expect(try f.waitForFocus(a.stack))
        for locks in [[], ["Num_Lock"], ["Caps_Lock"], ["Num_Lock", "Caps_Lock"]] {
            for lock in locks { try f.desktop.press(lock, loop: f.loop) }
            let on = try Self.locks(f)
            #expect(on == Set(locks.map { $0 == "Num_Lock" ? "Num Lock" : "Caps Lock" }))
            try f.desktop.press("ctrl+alt+z", loop: f.loop)
            let undone = try a.process.nextApply()
            #expect(undone.direction == "undo" && undone.payloads == ["u3"], "locks \(locks)")
            try f.desktop.press("ctrl+alt+shift+z", loop: f.loop)
            let redone = try a.process.nextApply()
            #expect(redone.direction == "redo" && redone.payloads == ["r3"], "locks \(locks)")
            for lock in locks { try f.desktop.press(lock, loop: f.loop) }
        }
        #expect(a.process.applies.count == 8)
    }

    @Test func aKeyAnotherProgramHoldsIsReportedAndTheRestWorks() throws {
        // Another program takes Ctrl+Alt+z before undod starts.
        let desktop = try TestDesktop()
        let other = try ScriptedProcess(["/usr/bin/python3", DesktopFixture.client("x11_app.py"),
                                         "--display", desktop.display], loop: EventLoop())
        defer { other.stop() }
        try other.next(event: "ready")
        try other.command(["cmd": "grab_key", "key": "z", "modifiers": ["control", "mod1"]])
        let f = try DesktopFixture(desktop: desktop)
        #expect(f.waitForLogKey("x11.keys-grabbed", holding: "Ctrl+Alt+Shift+z"))
        #expect(f.logKeyCount("x11.key-taken") == 1 && f.logKeyCount("x11.key-taken", holding: "hotkey.undo") == 1,
                "one line says so: \(f.daemon.daemon.log)")
        let a = try f.app("org.example.A", title: "Alpha", pushes: 2)
        try f.desktop.activate(a.window, loop: f.loop)
        #expect(try f.waitForFocus(a.stack))
        // undod serves as before, and the other key is undod's.
        #expect(try f.daemon.manager("UndoFocused").first?.string == a.stack)
        #expect(try a.process.nextApply().payloads == ["u2"])
        try f.desktop.press("ctrl+alt+shift+z", loop: f.loop)
        #expect(try a.process.nextApply().payloads == ["r2"])
    }

    @Test func aKeyboardMappingChangeMovesTheGrab() throws {
        let f = try DesktopFixture()
        let a = try f.app("org.example.A", title: "Alpha", pushes: 2)
        try f.desktop.activate(a.window, loop: f.loop)
        #expect(try f.waitForFocus(a.stack))
        let z = try f.desktop.tool(["sh", "-c", "xmodmap -pke | awk '$4 == \"z\" { print $2 }'"], loop: f.loop)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let y = try f.desktop.tool(["sh", "-c", "xmodmap -pke | awk '$4 == \"y\" { print $2 }'"], loop: f.loop)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(f.waitForLogKey("x11.key-codes", holding: "Ctrl+Alt+z on key code \(z);"))
        // A German-style swap: z moves to y's key.
        try f.desktop.tool(["xmodmap", "-e", "keycode \(z) = y Y", "-e", "keycode \(y) = z Z"], loop: f.loop)
        #expect(f.waitForLogKey("x11.key-codes", holding: "Ctrl+Alt+z on key code \(y);"))
        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        #expect(try a.process.nextApply().payloads == ["u2"])
        // The key that was z is y now: it undoes nothing.
        try f.desktop.press("ctrl+alt+y", loop: f.loop)
        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        #expect(try a.process.nextApply().payloads == ["u1"])
        #expect(a.process.applies.count == 2)
    }
}
