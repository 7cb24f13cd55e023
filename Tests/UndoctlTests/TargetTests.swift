import BusHarness
import DBus
import Foundation
import Testing

/// How a TARGET names a stack, and what happens when it names none or several.
@Suite struct TargetTests {
    /// `--json` promises JSON on standard output: a command that fails
    /// before it has its object (an unknown target, say) prints the error
    /// as one, as `undo` and `redo` print theirs.
    @Test(arguments: [["status", "org.example.Nothing"], ["history", "org.example.Nothing"],
                      ["focus", "org.example.Nothing"], ["forget", "org.example.Nothing"]])
    func jsonFailuresPrintTheErrorObject(_ arguments: [String]) throws {
        let f = try DaemonFixture()
        let result = try f.undoctl(["--json"] + arguments)
        #expect(result.status == 1)
        let object = try DaemonFixture.object(result.output)
        let error = object["error"] as? [String: Any]
        #expect(error?["exit_status"] as? Int == 1)
        #expect((error?["message"] as? String)?.contains("org.example.Nothing") == true, "\(result.output)")
        #expect(!result.errors.isEmpty, "the sentence still goes to standard error")
    }

    /// The title `list` shows names a stack where nothing else does.
    @Test func aTitleNamesItsStack() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Editor", title: "Text Editor", pushing: ["Typing"])
        let main = app.stack
        let notes = try app.register("org.example.Editor", ["document": .string("notes.txt"), "title": .string("Notes")])
        _ = try app.call("Push", [.string("Bold"), .bytes([1]), .bytes([2]), .vardict([:])], on: notes)
        let undone = try f.undoctl(["undo", "notes"])
        #expect(undone.status == 0, "\(undone.errors)")
        #expect(undone.output == "Undid \"Bold\" in Notes\n")
        #expect(try f.stackProperty(notes, "UndoDepth") == .uint32(0))
        #expect(try f.stackProperty(main, "UndoDepth") == .uint32(1), "Text Editor untouched")
        // Two stacks of one title: ambiguous, and both listed.
        try f.app("org.example.Other", title: "Notes")
        let two = try f.undoctl(["history", "Notes"])
        #expect(two.status == 1)
        #expect(two.errors.hasPrefix("undoctl: \"Notes\" matches 2 stacks; name one of them:"), "\(two.errors)")
    }

    @Test func anAppIdWithSeveralStacksIsAmbiguousAndListsThem() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Editor", title: "Text Editor", pushing: ["Typing"])
        let main = app.stack
        let notes = try app.register("org.example.Editor", ["document": .string("notes.txt"), "title": .string("Notes")])
        try f.app("org.example.Draw", title: "Drawing")

        for command in [["undo"], ["redo"], ["history"], ["status"], ["focus"], ["forget"]] {
            let result = try f.undoctl(command + ["org.example.Editor"])
            #expect(result.status == 1, "\(command) with an ambiguous target")
            #expect(result.output.isEmpty)
            let lines = result.errors.split(separator: "\n").map(String.init)
            #expect(lines.first == "undoctl: \"org.example.Editor\" matches 2 stacks; name one of them:")
            #expect(lines.contains { $0.contains(" \(number(of: main))  org.example.Editor ") && $0.hasSuffix("Text Editor") })
            #expect(lines.contains { $0.contains(" \(number(of: notes))  org.example.Editor:notes.txt") && $0.hasSuffix("Notes") })
        }
        #expect(try f.stackProperty(main, "UndoDepth") == .uint32(1), "nothing was undone")
        // Naming one of them works.
        try f.undoctl(["undo", "org.example.Editor:"]).expectSuccess()
    }

    @Test(arguments: ["org.example.Nothing", "org.example.Editor:other.txt", "99", "/org/undod/Undo1/stack/99",
                      "/not/a/stack"])
    func aTargetThatMatchesNothingExits1(_ target: String) throws {
        let f = try DaemonFixture()
        try f.app("org.example.Editor", pushing: ["Typing"])
        let result = try f.undoctl(["undo", target])
        #expect(result.status == 1)
        #expect(result.errors == "undoctl: no stack matches \"\(target)\": run `undoctl list` to see the stacks\n")
        #expect(result.output.isEmpty)
    }

    @Test func aTargetWhenThereAreNoStacksAtAll() throws {
        let f = try DaemonFixture()
        let result = try f.undoctl(["history", "org.example.Editor"])
        #expect(result.status == 1)
        #expect(result.errors.contains("there are no stacks at all"))
    }

    @Test func aDocumentMayContainColons() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Browser", title: "Form", document: "https://example.org:8080/form",
                            pushing: ["Typing"])
        let result = try f.undoctl(["undo", "org.example.Browser:https://example.org:8080/form"])
        result.expectSuccess()
        #expect(app.applied.count == 1)
    }

    @Test func aTargetStartingWithADashFollowsDoubleDash() throws {
        let f = try DaemonFixture()
        let app = try f.app("-dash", title: "Dash", pushing: ["Typing"])
        let result = try f.undoctl(["undo", "--", "-dash"])
        result.expectSuccess()
        #expect(app.applied.count == 1)
        #expect(try f.undoctl(["undo", "-dash"]).status == 2, "without --, it is an unknown option")
    }

    @Test func anAllDigitAppIdIsACandidateBesideTheStackNumberAndAppColonNamesItAlone() throws {
        let f = try DaemonFixture()
        let numbered = try f.app("org.example.First", title: "First", pushing: ["Typing"])
        let digitsId = number(of: numbered.stack)
        let digits = try f.app(digitsId, title: "Digits", pushing: ["Typing"])
        let both = try f.undoctl(["undo", digitsId])
        #expect(both.status == 1)
        #expect(both.errors.contains("matches 2 stacks"))
        #expect(numbered.applied.isEmpty && digits.applied.isEmpty)
        try f.undoctl(["undo", digitsId + ":"]).expectSuccess()
        #expect(digits.applied.count == 1 && numbered.applied.isEmpty, "`\(digitsId):` always means the app id")
        try f.undoctl(["undo", numbered.stack]).expectSuccess()
        #expect(numbered.applied.count == 1)
    }
}
