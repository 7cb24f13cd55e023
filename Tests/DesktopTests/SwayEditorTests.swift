import BusHarness
import DBus
import Foundation
import Testing

/// The toolkit bridges under a real headless sway (Wayland).
///
/// libundod's GTK 4 text bridge: the
/// GTK 4 editor (Python on the typelibs) beside another app with a stack,
/// typed into with wtype; the global key, bound in sway by undod, undoes
/// only in the view sway has focused; the editor's own Ctrl+Y redoes
/// through the same history. A headless sway has a keyboard only while
/// wtype runs (its virtual keyboard), so the apps hear of the keyboard
/// focus only then: the test waits for undod's focus, not the toolkit's.
extension SwayTests {
    @Test func theGtk4EditorUndoesOnlyWhenItsViewIsInFront() throws {
        let typelib = Repository.root.appendingPathComponent(".build/libundod/undod-gtk/UndodGtk-1.0.typelib")
        try #require(FileManager.default.fileExists(atPath: typelib.path), "run `make libundod` (make test does)")
        let f = try Fixture(.host)
        let (editor, textStack) = try f.example(
            ["/usr/bin/python3", Repository.root.appendingPathComponent("Examples/gtk4-editor.py").path,
             "--address", f.daemon.bus.address, "--trace"], environment: Fixture.gtkEnvironment)
        defer { editor.stop() }
        let other = try f.app("org.example.Other", title: "Other", pushes: 2)

        #expect(try f.focus(editor.process.processIdentifier, expecting: textStack))
        try f.sway.type(["hi"], loop: f.loop)
        #expect(f.daemon.wait { (try? f.daemon.stackProperty(textStack, "UndoName")?.string) == "Typing" })
        // What arrived: wtype's first key can go before the editor has its
        // (virtual) keyboard's keymap.
        let typed = try editor.next(timeout: 10_000, "the typed text") {
            $0["event"] as? String == "changed" && ($0["text"] as? String)?.hasSuffix("i") == true
        }["text"] as? String

        try f.otherAppTakesTheKey(other, leaving: textStack)

        // The editor in front: the global key undoes its typing; its own
        // Ctrl+Y redoes it through undod (wtype's keymap has no shifted z).
        #expect(try f.focus(editor.process.processIdentifier, expecting: textStack))
        try f.pressUndo()
        #expect(try editor.next(event: "applied")["text"] as? String == "")
        // -s 150: wtype's keyboard exists only while it runs, and a key sent
        // before the editor has taken its keymap is dropped (the typing above
        // shows it); the pause is the keyboard being there, as a real one is.
        try f.sway.type(["-s", "150", "-M", "ctrl", "-k", "y", "-m", "ctrl"], loop: f.loop)
        let redone = try editor.next(event: "applied")
        #expect(redone["direction"] as? String == "redo")
        #expect(redone["text"] as? String == typed)
        #expect(other.process.applies.count == 1, "the other app is untouched")
    }
}

extension SwayTests {
    /// UndodQt's QUndoStack bridge under headless sway: Ctrl+N (wtype, after
    /// the keyboard's pause) adds a shape on the Qt app's own stack; the
    /// global key undoes it only while its view is in front.
    @Test func theQtAppUndoesOnlyWhenItsViewIsInFront() throws {
        let binary = Repository.root.appendingPathComponent(".build/undod-qt/qt-shapes")
        try #require(FileManager.default.fileExists(atPath: binary.path), "run `make undod-qt` (make test does)")
        let f = try Fixture(.host)
        let (shapes, listStack) = try f.example([binary.path, "--trace"], environment: [
            "QT_QPA_PLATFORM": "wayland", "DBUS_SESSION_BUS_ADDRESS": f.daemon.bus.address,
        ])
        defer { shapes.stop() }
        let other = try f.app("org.example.Other", title: "Other", pushes: 2)

        #expect(try f.focus(shapes.process.processIdentifier, expecting: listStack))
        try f.sway.type(["-s", "150", "-M", "ctrl", "-k", "n", "-m", "ctrl"], loop: f.loop)
        #expect(f.daemon.wait { (try? f.daemon.stackProperty(listStack, "UndoDepth")?.uint32) == 1 })

        try f.otherAppTakesTheKey(other, leaving: listStack)

        #expect(try f.focus(shapes.process.processIdentifier, expecting: listStack))
        try f.pressUndo()
        #expect(try shapes.next(event: "applied")["items"] as? [String] == [])
        #expect(other.process.applies.count == 1)
    }
}


extension SwayTests {
    /// libundod's GTK 3 bridge (the GtkSourceBuffer's undo manager) under
    /// headless sway: the C example typed into with wtype beside another
    /// app; the global key undoes only while its view is in front; its own
    /// Ctrl+Z (after the keyboard's pause) undoes through the same history.
    @Test func theGtk3EditorUndoesOnlyWhenItsViewIsInFront() throws {
        let binary = Repository.root.appendingPathComponent(".build/libundod/examples/gtk3-sourceview")
        try #require(FileManager.default.fileExists(atPath: binary.path), "run `make libundod` (make test does)")
        let f = try Fixture(.host)
        let (editor, stack) = try f.example([binary.path, "--trace"], environment: Fixture.gtkEnvironment.merging([
            "DBUS_SESSION_BUS_ADDRESS": f.daemon.bus.address,
        ]) { $1 })
        defer { editor.stop() }
        let other = try f.app("org.example.Other", title: "Other", pushes: 2)

        #expect(try f.focus(editor.process.processIdentifier, expecting: stack))
        try f.sway.type(["-s", "150", "hi"], loop: f.loop)
        #expect(f.daemon.wait { (try? f.daemon.stackProperty(stack, "UndoName")?.string) == "Typing" })
        let typed = try editor.next(timeout: 10_000, "the typed text") {
            $0["event"] as? String == "changed" && ($0["text"] as? String)?.hasSuffix("i") == true
        }["text"] as? String

        try f.otherAppTakesTheKey(other, leaving: stack)

        // The editor in front: the global key undoes its typing, and the
        // menu follows; its own Ctrl+Shift+Z is not in wtype's keymap, so the
        // walk goes the other way: the global key's redo, then its Ctrl+Z.
        #expect(try f.focus(editor.process.processIdentifier, expecting: stack))
        try f.pressUndo()
        #expect(try editor.next(event: "applied")["text"] as? String == "")
        try editor.next(timeout: 10_000, "the Edit menu offering to redo the typing") {
            $0["event"] as? String == "menu" && $0["redoSensitive"] as? Bool == true
        }
        #expect(try f.daemon.manager("RedoFocused").first?.string == stack)
        #expect(try editor.next(event: "applied")["text"] as? String == typed)
        // GTK 3 on Wayland finds a key's code only below the keymap's highest
        // (gdk_wayland_keymap_get_entries_for_keyval stops before
        // xkb_keymap_max_keycode), and wtype's keymap holds only the keys it
        // types: were z its last, no key binding or accelerator would match
        // it. A Shift after it, which does nothing, keeps z below the top.
        try f.sway.type(["-s", "150", "-M", "ctrl", "-k", "z", "-m", "ctrl", "-k", "Shift_L"], loop: f.loop)
        let undone = try editor.next(event: "applied")
        #expect(undone["direction"] as? String == "undo")
        #expect(undone["text"] as? String == "")
        #expect(other.process.applies.count == 1, "the other app is untouched")
    }
}

extension SwayTests.Fixture {
    /// What a GTK app needs here: Wayland, no accessibility bus, settings in memory.
    static let gtkEnvironment = ["NO_AT_BRIDGE": "1", "GSETTINGS_BACKEND": "memory", "GDK_BACKEND": "wayland"]

    /// Starts an example app (`arguments`, with `--trace`) on this sway,
    /// `environment` over this process's own; waits until it registered
    /// its stack and sway mapped its view. Returns the app and its stack.
    func example(_ arguments: [String], environment: [String: String]) throws -> (ScriptedProcess, String) {
        let all = ProcessInfo.processInfo.environment.merging(sway.environment) { $1 }
            .merging(environment) { $1 }.filter { $0.key != "DISPLAY" }
        let app = try ScriptedProcess(arguments, environment: all, loop: loop)
        let registered = try app.next(event: "registered", timeout: 30_000)
        guard let stack = registered["path"] as? String else { throw HarnessError("\(arguments[0]) registered no stack: \(registered)") }
        try waitForView(of: app.process.processIdentifier)
        return (app, stack)
    }

    /// Another app in front takes the global key: its last group (`u2`) is
    /// undone, and nothing of `stack` (the app behind) is.
    func otherAppTakesTheKey(_ other: WaylandApp, leaving stack: String) throws {
        #expect(try focus(other.pid, expecting: other.stack))
        try pressUndo()
        #expect(try other.process.nextApply().payloads == ["u2"])
        #expect(try daemon.stackProperty(stack, "RedoDepth")?.uint32 == 0, "the app behind is untouched")
    }
}
