import BusHarness
import DBus
import Foundation
import Testing

/// The GTK 4 editor (libundod's text bridge, from Python) and the Qt app
/// (UndodQt's QUndoStack bridge, C++) side by side under Xvfb: the global
/// key undoes in the one in front and never in the other; the Qt app's own
/// Ctrl+Z is followed by undod.
@Suite struct TwoToolkitsTests {
    @Test func theGlobalKeyUndoesOnlyInTheAppInFront() throws {
        let typelib = Repository.root.appendingPathComponent(".build/libundod/undod-gtk/UndodGtk-1.0.typelib")
        let shapesBinary = Repository.root.appendingPathComponent(".build/undod-qt/qt-shapes")
        try #require(FileManager.default.fileExists(atPath: typelib.path), "run `make libundod` (make test does)")
        try #require(FileManager.default.fileExists(atPath: shapesBinary.path), "run `make undod-qt` (make test does)")
        let f = try DesktopFixture()
        let signals = try f.daemon.recordSignals()
        let environment = f.desktop.environment.merging([
            "NO_AT_BRIDGE": "1", "GSETTINGS_BACKEND": "memory", "GDK_BACKEND": "x11", "GSK_RENDERER": "cairo",
            "QT_QPA_PLATFORM": "xcb", "DBUS_SESSION_BUS_ADDRESS": f.bus.address,
        ]) { $1 }
        let editor = try ScriptedProcess(
            ["/usr/bin/python3", Repository.root.appendingPathComponent("Examples/gtk4-editor.py").path,
             "--address", f.bus.address, "--trace"], environment: environment, loop: f.loop)
        defer { editor.stop() }
        let shapes = try ScriptedProcess([shapesBinary.path, "--trace"], environment: environment, loop: f.loop)
        defer { shapes.stop() }
        let text = try editor.next(event: "registered", timeout: 30_000)
        let list = try shapes.next(event: "registered", timeout: 30_000)
        let textStack = try #require(text["path"] as? String)
        let listStack = try #require(list["path"] as? String)

        try f.desktop.activate(try #require(text["xid"] as? Int), loop: f.loop)
        #expect(try f.waitForFocus(textStack))
        try f.desktop.xdotool(["type", "--delay", "40", "hi"], loop: f.loop)
        #expect(f.daemon.wait { signals.arguments(of: "Pushed").count == 2 })

        try f.desktop.activate(try #require(list["xid"] as? Int), loop: f.loop)
        #expect(try f.waitForFocus(listStack))
        try f.desktop.press("ctrl+n", loop: f.loop)
        try f.desktop.press("ctrl+n", loop: f.loop)
        #expect(f.daemon.wait { signals.arguments(of: "Pushed").count == 4 })
        #expect(try f.daemon.stackProperty(listStack, "UndoName")?.string == "Add square")

        // In front: the Qt app. The global key undoes its last command only.
        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        let undoneShape = try shapes.next(event: "applied")
        #expect(undoneShape["items"] as? [String] == ["circle"])
        #expect(try f.daemon.stackProperty(textStack, "UndoDepth")?.uint32 == 1, "the editor's history is untouched")
        #expect(try f.daemon.stackProperty(textStack, "RedoDepth")?.uint32 == 0)

        // The Qt app's own Ctrl+Z: its stack undoes, undod follows.
        try f.desktop.press("ctrl+z", loop: f.loop)
        let changed = try shapes.next(timeout: 10_000, "the list emptied") {
            $0["event"] as? String == "changed" && ($0["items"] as? [String])?.isEmpty == true
        }
        #expect(changed["items"] != nil)
        #expect(f.daemon.wait { signals.announced(listStack, "RedoDepth", .uint32(2)) })

        // In front: the editor. The global key undoes its typing only.
        try f.desktop.activate(try #require(text["xid"] as? Int), loop: f.loop)
        #expect(try f.waitForFocus(textStack))
        try f.desktop.press("ctrl+alt+z", loop: f.loop)
        let undoneText = try editor.next(event: "applied")
        #expect(undoneText["text"] as? String == "")
        #expect(try f.daemon.stackProperty(listStack, "UndoDepth")?.uint32 == 0)
        #expect(try f.daemon.stackProperty(listStack, "RedoDepth")?.uint32 == 2, "the Qt app's history is untouched")
    }
}
