import BusHarness
import DBus
import Foundation
import Testing

/// `undoctl undo` and `undoctl redo`, with and without TARGET and `-n`.
@Suite struct UndoRedoTests {
    @Test func undoAndRedoTheFocusedStack() throws {
        let f = try DaemonFixture()
        let editor = try f.app("org.example.Editor", title: "Text Editor", pushing: ["Paste", "Typing"])

        let undo = try f.undoctl(["undo"])
        undo.expectSuccess()
        #expect(undo.output == "Undid \"Typing\" in Text Editor\n")
        #expect(editor.applied.map(\.direction) == ["undo"])
        #expect(editor.applied.first?.payloads == [[1, 0xAA]])

        let redo = try f.undoctl(["redo"])
        redo.expectSuccess()
        #expect(redo.output == "Redid \"Typing\" in Text Editor\n")
        #expect(editor.applied.map(\.direction) == ["undo", "redo"])
        #expect(try f.stackProperty(editor.stack, "UndoDepth") == .uint32(2))
    }

    @Test(arguments: ["org.example.Editor", "org.example.Editor:", "NUMBER", "PATH"])
    func undoANamedStackThatIsNotFocused(_ form: String) throws {
        let f = try DaemonFixture()
        let editor = try f.app("org.example.Editor", title: "Text Editor", pushing: ["Typing"])
        try f.app("org.example.Draw", title: "Drawing", pushing: ["Line"])
        let target = form == "NUMBER" ? number(of: editor.stack) : form == "PATH" ? editor.stack : form

        let result = try f.undoctl(["undo", target])
        result.expectSuccess()
        #expect(result.output == "Undid \"Typing\" in Text Editor\n")
        #expect(editor.applied.count == 1)
        #expect(try f.stackProperty(editor.stack, "RedoName") == .string("Typing"))
    }

    @Test func undoOneDocumentOfAnApp() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Editor", title: "Main", pushing: ["Main edit"])
        let main = app.stack
        try app.register("org.example.Editor", ["document": .string("notes.txt"), "title": .string("Notes")])
        try app.push("Notes edit")
        let result = try f.undoctl(["undo", "org.example.Editor:notes.txt"])
        result.expectSuccess()
        #expect(result.output == "Undid \"Notes edit\" in Notes\n")
        #expect(try f.stackProperty(main, "UndoDepth") == .uint32(1), "the main stack is untouched")
    }

    @Test func optionsComeBeforeOrAfterTarget() throws {
        let f = try DaemonFixture()
        let editor = try f.app("org.example.Editor", title: "Text Editor", pushing: ["1", "2", "3", "4", "5"])
        try f.app("org.example.Draw", title: "Drawing")
        let before = try f.undoctl(["undo", "-n", "2", "org.example.Editor"])
        before.expectSuccess()
        #expect(before.output == "Undid \"5\" in Text Editor\nUndid \"4\" in Text Editor\n")
        let after = try f.undoctl(["undo", "org.example.Editor", "-n", "2"])
        after.expectSuccess()
        #expect(after.output == "Undid \"3\" in Text Editor\nUndid \"2\" in Text Editor\n")
        let glued = try runTool([DaemonFixture.undoctlBinary, "redo", "org.example.Editor", "--count=3", "--json",
                                 "--address", f.bus.address], loop: f.loop)
        #expect(glued.status == 0, "global options after the command too: \(glued.errors)")
        let object = try DaemonFixture.object(glued.output)
        #expect((object["steps"] as? [[String: Any]])?.map { $0["name"] as? String } == ["2", "3", "4"])
        #expect(try f.stackProperty(editor.stack, "UndoDepth") == .uint32(4))
    }

    @Test func countStopsAtTheFirstFailureAfterPrintingWhatWasDone() throws {
        let f = try DaemonFixture()
        let editor = try f.app("org.example.Editor", title: "Text Editor", pushing: ["Paste", "Typing"])
        let result = try f.undoctl(["undo", "-n", "5"])
        #expect(result.status == 1)
        #expect(result.output == "Undid \"Typing\" in Text Editor\nUndid \"Paste\" in Text Editor\n")
        #expect(result.errors.hasPrefix("undoctl: There is nothing to undo in “Text Editor”"))
        #expect(result.errors.split(separator: "\n").count == 1, "one sentence")
        #expect(editor.applied.count == 2)
    }

    @Test func countStopsWhenTheAppFails() throws {
        let f = try DaemonFixture()
        let editor = try f.app("org.example.Editor", title: "Text Editor", pushing: ["1", "2", "3"])
        var calls = 0
        editor.behaviour = .custom { call in
            calls += 1
            if calls == 2 { call.fail(DBusError(name: "org.example.Error.Disk", message: "disk full")) } else { call.reply() }
        }
        let result = try f.undoctl(["--json", "undo", "org.example.Editor", "-n", "3"])
        #expect(result.status == 1)
        #expect(result.errors.contains("disk full"))
        let object = try DaemonFixture.object(result.output)
        #expect(object["direction"] as? String == "undo")
        #expect(object["requested"] as? Int == 3)
        let steps = try #require(object["steps"] as? [[String: Any]])
        #expect(steps.map { $0["name"] as? String } == ["3"])
        #expect(steps.first?["group"] as? Int != nil)
        #expect((steps.first?["stack"] as? [String: Any])?["path"] as? String == editor.stack)
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["name"] as? String == "org.undod.Undo1.Error.ClientFailed")
        #expect((error["message"] as? String)?.contains("disk full") == true)
        #expect(error["exit_status"] as? Int == 1)
        #expect(try f.stackProperty(editor.stack, "UndoDepth") == .uint32(2), "the failed step changed nothing")
    }

    /// `--last`: in a terminal the focused stack is the terminal's; the
    /// stack changed most recently is usually what is meant.
    @Test func lastActsOnTheStackChangedMostRecently() throws {
        let f = try DaemonFixture()
        let editor = try f.app("org.example.Editor", title: "Text Editor", pushing: ["Typing"])
        let draw = try f.app("org.example.Draw", title: "Drawing", pushing: ["Line"])
        // The editor changed last; undod's focus is another matter (pinned to Draw).
        try editor.push("Paste")
        #expect(try f.undoctl(["focus", "org.example.Draw:"]).status == 0)
        let undone = try f.undoctl(["undo", "--last"])
        #expect(undone.status == 0, "\(undone.errors)")
        #expect(undone.output == "Undid \"Paste\" in Text Editor\n")
        // Redo --last redoes what undo --last undid, though Draw's top is newer now.
        try draw.push("Circle")
        let redone = try f.undoctl(["redo", "--last"])
        #expect(redone.output == "Redid \"Paste\" in Text Editor\n", "\(redone.errors)")
        // The stack is chosen once; -n repeats there, as with a TARGET.
        let twice = try f.undoctl(["undo", "--last", "-n", "2"])
        #expect(twice.output == "Undid \"Circle\" in Drawing\nUndid \"Line\" in Drawing\n", "\(twice.errors)")
        // With a TARGET too: a usage error; with nothing anywhere: refused.
        #expect(try f.undoctl(["undo", "--last", "org.example.Editor:"]).status == 2)
        let empty = try DaemonFixture()
        let none = try empty.undoctl(["redo", "--last"])
        #expect(none.status == 1)
        #expect(none.errors.contains("No stack has anything to redo."))
    }

    @Test func refusalsExit1WithTheDaemonsSentence() throws {
        let f = try DaemonFixture()
        let noFocus = try f.undoctl(["undo"])
        #expect(noFocus.status == 1)
        #expect(noFocus.errors.hasPrefix("undoctl: No stack has the focus"))
        #expect(noFocus.errors.contains("(see `undoctl list`)"), "the hint status gives: \(noFocus.errors)")
        // undo carries the daemon's reason; both point a shell user at --last.
        #expect(noFocus.errors.contains("no application with undo history is active"), "\(noFocus.errors)")
        #expect(noFocus.errors.contains("`undoctl undo --last`"))
        #expect(noFocus.output.isEmpty)

        let editor = try f.app("org.example.Editor", title: "Text Editor")
        let nothing = try f.undoctl(["redo"])
        #expect(nothing.status == 1)
        #expect(nothing.errors == "undoctl: There is nothing to redo in “Text Editor” (stack \(number(of: editor.stack))): undo a change first.\n")

        let gone = try f.app("org.example.Draw", title: "Drawing", pushing: ["Line"])
        try f.quit(gone)
        let detached = try f.undoctl(["undo", "org.example.Draw"])
        #expect(detached.status == 1)
        #expect(detached.errors.contains("has no running application"))
        // status says what undo does, in the same words.
        let status = try f.undoctl(["status", "org.example.Draw"])
        let owner = try #require(status.output.split(separator: "\n").first { $0.contains("Owner:") })
        #expect(owner.hasSuffix("none (detached): no running application to apply changes: "
                                + "start the application again so that it registers the stack."), "\(owner)")
        #expect(detached.errors.hasSuffix("has no running application to apply changes: "
                                          + "start the application again so that it registers the stack.\n"),
                "\(detached.errors)")
    }

    /// On a terminal, an undo the app is slow to apply says, after a
    /// moment, which app it waits for (through `script`, which gives
    /// undoctl a pseudo-terminal).
    @Test func aSlowUndoSaysWhichAppItWaitsForOnATerminal() throws {
        let f = try DaemonFixture(config: "[apply]\ntimeout_ms = 2500\n")
        let editor = try f.app("org.example.Editor", title: "Text Editor", pushing: ["Typing"])
        editor.behaviour = .hang
        let command = [DaemonFixture.undoctlBinary, "--address", f.bus.address, "undo"].map { "'\($0)'" }.joined(separator: " ")
        let result = try runTool(["script", "-qec", command, "/dev/null"], loop: f.loop)
        #expect(result.output.contains("undoctl: waiting for Text Editor (org.example.Editor) to apply the undo\u{2026}"),
                "\(result.output)")
        #expect(result.status == 1, "the app never answered: \(result.output)")
    }

    @Test func undoJSON() throws {
        let f = try DaemonFixture()
        let editor = try f.app("org.example.Editor", title: "Text Editor", pushing: ["Typing"])
        let object = try f.json(["undo"])
        #expect(object["direction"] as? String == "undo")
        #expect(object["error"] is NSNull)
        #expect(object["requested"] as? Int == 1)
        let step = try #require((object["steps"] as? [[String: Any]])?.first)
        #expect(step["name"] as? String == "Typing")
        let stack = try #require(step["stack"] as? [String: Any])
        #expect(stack["path"] as? String == editor.stack)
        #expect(stack["title"] as? String == "Text Editor")
        #expect(stack["redo_name"] as? String == "Typing", "the stack as it is after the step")
        #expect(Set(stack.keys) == StackSchema.keys)

        let failed = try f.undoctl(["--json", "undo"])
        #expect(failed.status == 1)
        let refusal = try DaemonFixture.object(failed.output)
        #expect((refusal["steps"] as? [Any])?.isEmpty == true)
        #expect((refusal["error"] as? [String: Any])?["name"] as? String == "org.undod.Undo1.Error.NothingToUndo")
    }
}
