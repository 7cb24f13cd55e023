import BusHarness
import DBus
import Foundation
import Testing

/// `undoctl focus` (`SetFocus`) and `undoctl forget` (`Forget`).
@Suite struct FocusForgetTests {
    @Test func focusMovesTheFocusAndUndoFollowsIt() throws {
        let f = try DaemonFixture()
        let editor = try f.app("org.example.Editor", title: "Text Editor", pushing: ["Typing"])
        let draw = try f.app("org.example.Draw", title: "Drawing", pushing: ["Line"])
        #expect(try f.managerProperty("FocusedStack") == .objectPath(draw.stack))

        let result = try f.undoctl(["focus", "org.example.Editor"])
        result.expectSuccess()
        #expect(result.output == "Focused Text Editor (stack \(number(of: editor.stack)))\n")
        #expect(try f.managerProperty("FocusedStack") == .objectPath(editor.stack))
        try f.undoctl(["undo"]).expectSuccess()
        #expect(editor.applied.count == 1 && draw.applied.isEmpty)

        let object = try f.json(["focus", draw.stack])
        let stack = try #require(object["stack"] as? [String: Any])
        #expect(stack["path"] as? String == draw.stack && stack["focused"] as? Bool == true)
    }

    @Test func focusIsRefusedForADetachedOrOptedOutStack() throws {
        let f = try DaemonFixture()
        let gone = try f.app("org.example.Draw", title: "Drawing")
        try f.quit(gone)
        let detached = try f.undoctl(["focus", "org.example.Draw"])
        #expect(detached.status == 1)
        #expect(detached.errors.contains("has no running application"))

        try f.app("org.example.Secret", title: "Passwords", options: ["global_trigger": .bool(false)])
        let private_ = try f.undoctl(["focus", "org.example.Secret"])
        #expect(private_.status == 1)
        #expect(private_.errors.contains("does not allow undo or redo from outside"))
    }

    @Test func forgetDeletesADetachedStack() throws {
        let f = try DaemonFixture()
        let gone = try f.app("org.example.Draw", title: "Drawing", pushing: ["Line"])
        let path = gone.stack
        try f.quit(gone)
        let list = try f.undoctl(["list"])
        #expect(list.output.contains("detached"))

        let result = try f.undoctl(["forget", "org.example.Draw"])
        result.expectSuccess()
        #expect(result.output == "Forgot Drawing (stack \(number(of: path))) and its history\n")
        #expect(try f.undoctl(["list"]).output == "No stacks: no application has one with undod now.\n",
                "true after a forget too: no word of nothing having registered yet")
        let again = try f.undoctl(["forget", number(of: path)])
        #expect(again.status == 1, "it is gone")
    }

    @Test func forgetJSON() throws {
        let f = try DaemonFixture()
        let gone = try f.app("org.example.Draw", title: "Drawing")
        try f.quit(gone)
        let object = try f.json(["forget", gone.stack])
        let stack = try #require(object["stack"] as? [String: Any])
        #expect(stack["path"] as? String == gone.stack)
        #expect(stack["detached"] as? Bool == true)
    }

    @Test func forgetIsRefusedWhileTheAppRuns() throws {
        let f = try DaemonFixture()
        let editor = try f.app("org.example.Editor", title: "Text Editor", pushing: ["Typing"])
        let result = try f.undoctl(["forget", "org.example.Editor"])
        #expect(result.status == 1)
        #expect(result.errors.contains("still has a running application: quit it"))
        #expect(!result.errors.contains("Close(true)"), "no D-Bus call named to a shell user")
        #expect(try f.stackProperty(editor.stack, "UndoDepth") == .uint32(1))
    }

    @Test func focusAndForgetNeedATarget() throws {
        let f = try DaemonFixture()
        for command in ["focus", "forget"] {
            let result = try f.undoctl([command])
            #expect(result.status == 2)
            #expect(result.errors.contains("\(command) needs a TARGET"))
            #expect(result.errors.contains("Try 'undoctl \(command) --help'"))
        }
    }
}
