import BusHarness
import DBus
import Foundation
import Testing

/// `undoctl status` (and `undoctl` alone): the focused stack at a glance.
@Suite struct StatusTests {
    @Test func statusIsTheDefaultAndShowsTheFocusedStack() throws {
        let f = try DaemonFixture()
        try f.app("org.example.Draw", title: "Drawing", pushing: ["Line"])
        let editor = try f.app("org.example.Editor", title: "Text Editor", pushing: ["Paste", "Typing"])
        _ = try editor.call("Undo")

        let plain = try f.undoctl([])
        let status = try f.undoctl(["status"])
        #expect(plain.status == 0 && status.status == 0)
        #expect(plain.output == status.output, "status is the default command")
        let lines = status.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "Text Editor (stack \(number(of: editor.stack))), focused")
        #expect(lines.contains("  App:      org.example.Editor"))
        #expect(lines.contains("  Undo:     \"Paste\" (1 step)"))
        #expect(lines.contains("  Redo:     \"Typing\" (1 step)"))
        #expect(lines.contains("  State:    modified"))
        #expect(lines.contains("  Owner:    \(editor.name) (running)"))
        #expect(lines.contains { $0.hasPrefix("  Focus:    recent, a guess") }, "which strategy, and what it means")
        #expect(status.errors.isEmpty)
    }

    @Test func statusSaysWhatWouldLetUndodSeeTheWindowOnThisDesktop() throws {
        let f = try DaemonFixture()
        try f.app("org.example.Editor", title: "Notes", pushing: ["Typing"])
        let focus = { (desktop: [String: String]) throws -> String in
            try f.undoctl(["status"], environment: desktop).output.split(separator: "\n")
                .first { $0.hasPrefix("  Focus:") }.map(String.init) ?? ""
        }
        #expect(try focus(["XDG_CURRENT_DESKTOP": "ubuntu:GNOME"]).contains("gnome-extensions enable undod@undod.org"))
        #expect(try focus(["XDG_CURRENT_DESKTOP": "KDE"]).contains("KWin script"))
        #expect(try focus(["XDG_CURRENT_DESKTOP": "sway", "SWAYSOCK": "/run/user/1000/sway-ipc.sock"])
            .contains("import-environment SWAYSOCK"))
    }

    @Test func statusOfACleanStackAndOfANamedTarget() throws {
        let f = try DaemonFixture()
        let notes = try f.app("org.example.Editor", title: "Notes", document: "notes.txt", pushing: ["Typing"])
        _ = try notes.call("SetClean")
        try f.app("org.example.Draw", title: "Drawing")

        let result = try f.undoctl(["status", "org.example.Editor:notes.txt"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("Notes (stack \(number(of: notes.stack)))\n"), "not focused: no mark")
        #expect(result.output.contains("  Document: notes.txt\n"))
        #expect(result.output.contains("  State:    clean (as last saved)\n"))
        #expect(result.output.contains("  Redo:     nothing\n"))
    }

    /// Plain `undoctl` with nothing focused shows undod's state, not an error.
    @Test func statusWithoutAFocusedStackShowsTheDaemon() throws {
        let f = try DaemonFixture()
        let empty = try f.undoctl([])
        #expect(empty.status == 0 && empty.errors.isEmpty, "\(empty.status): \(empty.errors)")
        #expect(empty.output.hasPrefix("No stack has the focus"))
        #expect(empty.output.contains("  Stacks:   none yet"), "\(empty.output)")
        #expect(empty.output.contains("  Focus:    recent"), "\(empty.output)")
        let editor = try f.app("org.example.Editor", title: "Text Editor", pushing: ["Typing"])
        try editor.call("Deactivate")
        let some = try f.undoctl(["status"])
        #expect(some.status == 0)
        #expect(some.output.contains("  Stacks:   1 (1 with their application running): `undoctl list` shows them, "
                                     + "`undoctl undo --last` undoes the change made last"), "\(some.output)")
        let json = try f.json(["status"])
        #expect(json["stack"] is NSNull)
        #expect((json["daemon"] as? [String: Any])?["focus_strategy"] as? String == "recent", "\(json)")
    }

    @Test func statusJSONHasTheStackAndTheDaemon() throws {
        let f = try DaemonFixture()
        let editor = try f.app("org.example.Editor", title: "Text Editor", pushing: ["Typing", "Bold"])
        let object = try f.json(["status"])
        let stack = try #require(object["stack"] as? [String: Any])
        #expect(stack["title"] as? String == "Text Editor")
        #expect(stack["app_id"] as? String == "org.example.Editor")
        #expect(stack["document"] as? String == "")
        #expect(stack["path"] as? String == editor.stack)
        #expect(stack["number"] as? Int == Int(number(of: editor.stack)))
        #expect(stack["undo_name"] as? String == "Bold")
        #expect(stack["redo_name"] is NSNull, "none is null")
        #expect(stack["undo_depth"] as? Int == 2)
        #expect(stack["redo_depth"] as? Int == 0)
        #expect(stack["clean"] as? Bool == false)
        #expect(stack["focused"] as? Bool == true)
        #expect(stack["detached"] as? Bool == false)
        #expect(stack["owner"] as? String == editor.name)
        #expect(stack["bytes"] as? Int == 32, "two small actions, 16 bytes each as the limits count them")
        #expect(stack["limit"] as? Int == 100)
        #expect(stack["persistent"] as? Bool == true)
        #expect(stack["global_trigger"] as? Bool == true)
        #expect(Set(stack.keys) == StackSchema.keys)
        let daemon = try #require(object["daemon"] as? [String: Any])
        #expect(daemon["version"] as? String == "0.1.0")
        #expect(daemon["focus_strategy"] as? String == "recent")
        #expect(daemon["focused_stack"] as? String == editor.stack)
        #expect(daemon["key_problem"] as? String == "", "no desktop on this bus, so no key to lose")
    }

    /// A D-Bus activation that fails: the bus says only how undod ended, so
    /// undoctl says that and where undod's own words went.
    @Test func anActivationThatFailsSaysWhereUndodsReasonIs() throws {
        let services = FileManager.default.temporaryDirectory.appendingPathComponent("undod-services-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: services) }
        try "[D-BUS Service]\nName=org.undod.Undo1\nExec=/bin/false\n"
            .write(to: services.appendingPathComponent("org.undod.Undo1.service"), atomically: false, encoding: .utf8)
        let bus = try TestBus(services: services)
        defer { bus.stop() }
        let result = try runTool([DaemonFixture.undoctlBinary, "--address", bus.address, "status"])
        #expect(result.status == 3, "\(result.errors)")
        #expect(result.errors.contains("the bus could not start undod"), "\(result.errors)")
        #expect(result.errors.contains("journalctl --user -u undod"), "\(result.errors)")
    }
}

/// The documented keys of a stack object (Docs/undoctl-json.md).
enum StackSchema {
    static let keys: Set<String> = [
        "number", "path", "app_id", "document", "title", "owner", "detached", "focused", "undo_name",
        "redo_name", "undo_depth", "redo_depth", "limit", "bytes", "max_bytes", "clean", "persistent",
        "global_trigger",
    ]
}
