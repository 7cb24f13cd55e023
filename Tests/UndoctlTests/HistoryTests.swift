import BusHarness
import DBus
import Foundation
import Testing

/// `undoctl history`: both sides, top first, with ids, names, times and sizes.
@Suite struct HistoryTests {
    @Test func historyShowsBothSidesTopFirst() throws {
        let f = try DaemonFixture()
        let editor = try f.app("org.example.Editor", title: "Text Editor")
        let paste = try editor.push("Paste", undo: [UInt8](repeating: 1, count: 1_000), redo: [UInt8](repeating: 2, count: 1_000))
        let typing = try editor.push("Typing", undo: [1], redo: [2])
        let bold = try editor.push("Bold", undo: [1, 2], redo: [3])
        _ = try editor.call("Undo")

        let result = try f.undoctl(["history"])
        result.expectSuccess()
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines[0] == "Text Editor (stack \(number(of: editor.stack))): 2 to undo, 1 to redo")
        #expect(lines[1] == "Undo, next first:")
        #expect(lines[2].hasPrefix("  ") && lines[2].contains("\(typing)  ") && lines[2].hasSuffix("2 B  \"Typing\""))
        #expect(lines[3].contains("\(paste)  ") && lines[3].hasSuffix("2.0 KiB  \"Paste\""))
        #expect(lines[4] == "Redo, next first:")
        #expect(lines[5].contains("\(bold)  ") && lines[5].hasSuffix("3 B  \"Bold\""))
        #expect(lines.count == 6)
        // Times: today's, as HH:MM:SS.
        let time = lines[2].split(separator: " ", omittingEmptySubsequences: true)[1]
        #expect(time.count == 8 && time.split(separator: ":").count == 3)
    }

    @Test func historyOfAnEmptyStackAndOfATarget() throws {
        let f = try DaemonFixture()
        try f.app("org.example.Editor", title: "Text Editor", pushing: ["Typing"])
        let draw = try f.app("org.example.Draw", title: "Drawing")
        let result = try f.undoctl(["history", number(of: draw.stack)])
        result.expectSuccess()
        #expect(result.output == """
            Drawing (stack \(number(of: draw.stack))): 0 to undo, 0 to redo
            Undo, next first:
              nothing to undo
            Redo, next first:
              nothing to redo

            """)
    }

    @Test func historyJSON() throws {
        let f = try DaemonFixture()
        let editor = try f.app("org.example.Editor", title: "Text Editor")
        let first = try editor.push("Paste", undo: [1, 2, 3], redo: [4])
        let second = try editor.push("Typing", undo: [1], redo: [2])
        _ = try editor.call("Undo")
        let before = Int(Date().timeIntervalSince1970 * 1_000_000)
        let object = try f.json(["history", "org.example.Editor"])
        let stack = try #require(object["stack"] as? [String: Any])
        #expect(stack["path"] as? String == editor.stack)
        let undo = try #require(object["undo"] as? [[String: Any]])
        let redo = try #require(object["redo"] as? [[String: Any]])
        #expect(undo.count == 1 && redo.count == 1)
        #expect(undo[0]["group"] as? Int == Int(first))
        #expect(undo[0]["name"] as? String == "Paste")
        #expect(undo[0]["bytes"] as? Int == 4)
        #expect(redo[0]["group"] as? Int == Int(second))
        #expect(redo[0]["name"] as? String == "Typing")
        let micros = try #require(undo[0]["time_us"] as? Int)
        #expect(micros <= before && micros > before - 600_000_000, "µs since the epoch")
        let stamp = try #require(undo[0]["time"] as? String)
        #expect(stamp.hasSuffix("Z") && stamp.count == 24, "RFC 3339 in UTC with milliseconds: \(stamp)")
        #expect(Set(undo[0].keys) == ["group", "name", "time_us", "time", "bytes"])
    }

    @Test func historyWithoutAFocusedStackExits1() throws {
        let f = try DaemonFixture()
        let result = try f.undoctl(["history"])
        #expect(result.status == 1)
        #expect(result.errors.hasPrefix("undoctl: No stack has the focus"))
    }
}
