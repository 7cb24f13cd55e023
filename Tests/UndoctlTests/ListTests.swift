import BusHarness
import DBus
import Foundation
import Testing

/// `undoctl list`: every stack, a line each.
@Suite struct ListTests {
    @Test func listShowsEveryStackOnALine() throws {
        let f = try DaemonFixture()
        let editor = try f.app("org.example.Editor", title: "Text Editor", pushing: ["Paste", "Typing"])
        _ = try editor.call("Undo")
        let notes = try f.app("org.example.Editor", title: "Notes", document: "notes.txt", pushing: ["Bold"])
        let gone = try f.app("org.example.Draw", title: "Drawing", pushing: ["Line"])
        try f.quit(gone)
        try f.undoctl(["focus", "org.example.Editor:notes.txt"]).expectSuccess()

        let result = try f.undoctl(["list"])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.first)
        #expect(header.contains("#") && header.contains("TARGET") && header.contains("TITLE")
                && header.contains("OWNER") && header.contains("UNDO") && header.contains("REDO"))
        let editorLine = try #require(lines.first { $0.contains("Text Editor") })
        #expect(editorLine.hasPrefix(" ") && editorLine.contains(" \(number(of: editor.stack))  "))
        #expect(editorLine.contains("org.example.Editor: "), "the TARGET that names it alone")
        #expect(editorLine.contains(" live "))
        #expect(editorLine.contains("1 \"Paste\""))
        #expect(editorLine.hasSuffix("1 \"Typing\""))
        let notesLine = try #require(lines.first { $0.contains("Notes") })
        #expect(notesLine.hasPrefix("*"), "the focused stack is marked")
        #expect(notesLine.contains("org.example.Editor:notes.txt"))
        #expect(notesLine.contains(" \(number(of: notes.stack)) "))
        let drawLine = try #require(lines.first { $0.contains("Drawing") })
        #expect(drawLine.contains(" detached "), "detached stacks are marked")
        #expect(drawLine.contains("1 \"Line\""))
        #expect(lines.contains("3 stacks; * marks the focused one."))
        // The columns line up: every row has its title where the header has TITLE.
        let titleColumn = try #require(header.range(of: "TITLE")).lowerBound.utf16Offset(in: header)
        for line in [editorLine, notesLine, drawLine] {
            let column = try #require(line.range(of: "Text Editor") ?? line.range(of: "Notes")
                                      ?? line.range(of: "Drawing")).lowerBound.utf16Offset(in: line)
            #expect(column == titleColumn)
        }
    }

    @Test func listFitsANarrowTerminalCuttingTitlesAndNamesFirst() throws {
        let f = try DaemonFixture()
        try f.app("org.example.Editor", title: "A Rather Long Window Title For An Editor",
                  pushing: ["Insert a very long paragraph of text"])
        try f.app("org.example.Draw", title: "Drawing", pushing: ["Line"])
        let wide = try f.undoctl(["list"])
        #expect(wide.output.contains("A Rather Long Window Title For An Editor"), "a pipe gets every character")
        let narrow = try f.undoctl(["list"], environment: ["COLUMNS": "60"])
        #expect(narrow.status == 0)
        let lines = narrow.output.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 60 }, "\(narrow.output)")
        #expect(lines.contains { $0.contains("org.example.Editor") && $0.contains("A Rather…") }, "\(narrow.output)")
        #expect(lines.contains { $0.contains("1 \"Inser") && $0.hasSuffix("…  0") }, "\(narrow.output)")
    }

    @Test func listWithNoStacks() throws {
        let f = try DaemonFixture()
        let text = try f.undoctl(["list"])
        #expect(text.status == 0)
        #expect(text.output == "No stacks: no application has one with undod now.\n")
        let object = try f.json(["list"])
        #expect((object["stacks"] as? [Any])?.isEmpty == true)
        #expect(object["focused_stack"] is NSNull)
        #expect(try f.undoctl(["list", "-q"]).output.isEmpty)
    }

    @Test func listJSONIsEveryStackByNumberWithSortedKeys() throws {
        let f = try DaemonFixture()
        let first = try f.app("org.example.Editor", title: "Text Editor", pushing: ["Typing"])
        let second = try f.app("org.example.Draw", title: "Drawing")
        try f.quit(second)
        let result = try f.undoctl(["list", "--json"])
        #expect(result.status == 0)
        let object = try DaemonFixture.object(result.output)
        let stacks = try #require(object["stacks"] as? [[String: Any]])
        #expect(stacks.map { $0["path"] as? String } == [first.stack, second.stack])
        #expect(stacks.allSatisfy { Set($0.keys) == StackSchema.keys })
        #expect(stacks[1]["detached"] as? Bool == true)
        #expect(stacks[1]["owner"] is NSNull)
        #expect(stacks[0]["focused"] as? Bool == true)
        #expect(object["focused_stack"] as? String == first.stack)
        // Deterministic: the same state prints the same bytes, keys in order.
        #expect(try f.undoctl(["--json", "list"]).output == result.output)
        #expect(result.output.hasPrefix("{\"focused_stack\":"))
        let keys = ["\"app_id\"", "\"bytes\"", "\"clean\"", "\"detached\"", "\"document\"", "\"focused\"",
                    "\"global_trigger\"", "\"limit\"", "\"max_bytes\"", "\"number\"", "\"owner\"", "\"path\"",
                    "\"persistent\"", "\"redo_depth\"", "\"redo_name\"", "\"title\"", "\"undo_depth\"",
                    "\"undo_name\""]
        let offsets = keys.compactMap { result.output.range(of: $0)?.lowerBound }
        #expect(offsets.count == keys.count && offsets == offsets.sorted(), "keys are sorted")
    }

    /// `list -q` offers only TARGETs that resolve, each to its own stack:
    /// `app:` where the app has several stacks, the number where an
    /// all-digit app id would also be a stack number.
    @Test func listQuietPrintsTargetsThatEachNameOneStack() throws {
        let f = try DaemonFixture()
        let editor = try f.app("org.example.Editor")
        let notes = try f.app("org.example.Editor", document: "notes.txt")
        let draw = try f.app("org.example.Draw")
        let result = try f.undoctl(["list", "-q"])
        #expect(result.status == 0)
        #expect(result.output == "org.example.Editor:\norg.example.Editor:notes.txt\norg.example.Draw\n")
        for (target, app) in zip(result.output.split(separator: "\n"), [editor, notes, draw]) {
            let status = try f.json(["status", String(target)])
            let stack = status["stack"] as? [String: Any]
            #expect(stack?["path"] as? String == app.stack, "\(target) names its own stack")
        }
        try f.quit(editor)
        try f.quit(notes)
        // An app id of digits that is also a stack's number.
        let drawNumber = String(try #require(draw.stack.split(separator: "/").last))
        try f.app(drawNumber)
        let quiet = try f.undoctl(["list", "-q"]).output.split(separator: "\n").map(String.init)
        #expect(quiet.count == 4)
        for target in quiet {
            #expect(try f.undoctl(["status", target]).status == 0, "\(target) resolves")
        }
        #expect(quiet.last == drawNumber + ":", "the app id \(drawNumber), not stack \(drawNumber): \(quiet)")
    }

    @Test func documentsAndNamesCannotDriveTheTerminal() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Evil", title: "Evil\u{2028}Title", document: "a\u{2028}b\\")
        try app.push("Quote \" and \\")
        let result = try f.undoctl(["list"])
        #expect(!result.output.contains("\u{1B}") && !result.output.contains("\u{2028}"))
        #expect(result.output.contains("Evil\\u{2028}Title"))
        #expect(result.output.contains("org.example.Evil:a\\u{2028}b\\ "))
        #expect(result.output.contains("\"Quote \\\" and \\\\\""))
        let object = try f.json(["list"])
        let stack = try #require((object["stacks"] as? [[String: Any]])?.first)
        #expect(stack["title"] as? String == "Evil\u{2028}Title", "JSON keeps the exact text")
        #expect(stack["document"] as? String == "a\u{2028}b\\")
        #expect(stack["undo_name"] as? String == "Quote \" and \\")
        #expect(!(try f.undoctl(["--json", "list"]).output.contains("\u{1B}")), "escaped in JSON too")
    }
}

extension ToolResult {
    /// Expects exit status 0 and nothing on stderr.
    func expectSuccess(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(status == 0 && errors.isEmpty, "exit \(status): \(errors)", sourceLocation: sourceLocation)
    }
}

/// The examples of the README, undoctl(1) and every command's help name
/// stacks that exist on the listing the README shows, and each TARGET in
/// them names exactly one.
@Suite struct ExampleTargetTests {
    @Test func everyExampleTargetResolvesOnTheReadmesListing() throws {
        let f = try DaemonFixture()
        try f.app("org.example.Editor", title: "Text Editor", pushing: ["Typing"])
        try f.app("org.example.Editor", title: "Notes", document: "notes.txt", pushing: ["Paste"])
        let draw = try f.app("org.example.Draw", title: "Drawing", pushing: ["Line"])
        try f.quit(draw)
        var lines = try DocsTests.text("README.md")
            .split(separator: "\n").map(String.init)
        lines += try DocsTests.text("Docs/undoctl.1")
            .replacingOccurrences(of: "\\-", with: "-").split(separator: "\n").map(String.init)
        for command in ["status", "list", "undo", "redo", "history", "focus", "forget", "watch", ""] {
            lines += try f.undoctlBare(command.isEmpty ? ["--help"] : [command, "--help"]).output
                .split(separator: "\n").map(String.init)
        }
        let examples = lines.map { $0.trimmingCharacters(in: .whitespaces) }
            .map { $0.hasPrefix("$ ") ? String($0.dropFirst(2)) : $0 }
            .map { $0.hasPrefix(".B \"") ? String($0.dropFirst(4).prefix { $0 != "\"" }) : $0 }
            .filter { $0.hasPrefix("undoctl ") }
        var targets = Set<String>()
        for example in examples {
            for word in example.split(separator: " ") where word.hasPrefix("org.example.") {
                targets.insert(String(word))
            }
        }
        #expect(targets.isSuperset(of: ["org.example.Editor:", "org.example.Editor:notes.txt"]), "examples found: \(targets)")
        for target in targets {
            let result = try f.undoctl(["status", target])
            #expect(result.status == 0, "the example TARGET \(target) does not resolve: \(result.errors)")
        }
    }
}
