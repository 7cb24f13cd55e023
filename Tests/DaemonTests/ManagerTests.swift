import BusHarness
import DBus
import Foundation
import Testing

/// `org.undod.Undo1.Manager`, end to end through a real bus and undod.
@Suite struct ManagerTests {
    @Test func registerOpensReopensAndRefusesAnotherOwner() throws {
        let f = try DaemonFixture()
        let app = try f.app()
        let path = try app.register("org.example.Editor", ["title": .string("Text Editor")])
        #expect(path.hasPrefix("/org/undod/Undo1/stack/"))
        #expect(try app.register("org.example.Editor") == path, "the owner registering again gets the same path")
        #expect(try app.property("Title") == .string("Text Editor"), "options left out keep their stored values")
        #expect(try app.property("Owner") == .string(app.name))
        #expect(try app.property("AppId") == .string("org.example.Editor"))
        #expect(try app.property("Document") == .string(""))
        let document = try app.register("org.example.Editor", ["document": .string("notes.txt")])
        #expect(document != path, "one stack per document")
        #expect(try app.property("Title") == .string("org.example.Editor"), "the title defaults to the app id")

        let other = try f.app()
        let refused = errorOf { () throws(DBusError) in try other.register("org.example.Editor") }
        #expect(refused?.name == undodError("AlreadyOwned"))
        #expect(refused?.message.contains(app.name) == true)
    }

    @Test(arguments: ["", "has space", "slash/no", "ünïcode", String(repeating: "a", count: 256)])
    func invalidAppIdsAreRefused(_ appId: String) throws {
        let f = try DaemonFixture()
        let app = try f.app()
        let error = errorOf { () throws(DBusError) in try app.register(appId) }
        #expect(error?.name == undodError("InvalidAppId"))
        #expect(try f.managerProperty("FocusedStack") == .objectPath("/"), "nothing was created")
    }

    @Test func longestAppIdAndUnknownOptionsAreAccepted() throws {
        let f = try DaemonFixture()
        let app = try f.app()
        try app.register(String(repeating: "a", count: 255), ["future_option": .string("x")])
        #expect(try app.property("Owner") == .string(app.name))
        let wrongType = errorOf { () throws(DBusError) in try app.register("b", ["limit": .string("5")]) }
        #expect(wrongType?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        let escape = errorOf { () throws(DBusError) in try app.register("b", ["document": .string("a\u{1B}[2Jb")]) }
        #expect(escape?.name == "org.freedesktop.DBus.Error.InvalidArgs", "no terminal escapes in names shown to people")
    }

    @Test func adoptionKeepsHistoryAndStateTagDecides() throws {
        let f = try DaemonFixture()
        let signals = try f.recordSignals()
        let first = try f.app("org.example.Editor", pushing: [])
        let path = first.stack
        try first.push("Typing", undo: [1], redo: [2], hints: ["state_tag": .string("v1")])
        try first.push("Bold", undo: [3], redo: [4], hints: ["state_tag": .string("v2")])
        first.quit()
        #expect(f.wait { signals.entries.contains { $0.path == path && Self.owner(in: $0.arguments) == "" } })

        let second = try f.app()
        #expect(try second.register("org.example.Editor", ["state_tag": .string("v2")]) == path)
        #expect(try second.property("UndoDepth") == .uint32(2), "a matching state tag keeps the history")
        #expect(try second.property("Owner") == .string(second.name))
        _ = try second.call("Undo")
        #expect(second.applied.first?.payloads == [[3]], "the adopter applies the first owner's payloads")
        second.quit()
        #expect(f.wait { signals.entries.filter { $0.path == path && Self.owner(in: $0.arguments) == "" }.count == 2 })

        let third = try f.app()
        #expect(try third.register("org.example.Editor", ["state_tag": .string("v9")]) == path)
        #expect(try third.property("UndoDepth") == .uint32(0), "a different state tag discards the history")
        #expect(try third.property("RedoDepth") == .uint32(0))
        #expect(f.daemon.logKeyCount("stack.history-discarded", holding: "v9") == 1, "the log says so: \(f.daemon.log)")
    }

    @Test func registerAgainReplacesOptionsAndLowersTheLimitAtOnce() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Editor", pushing: ["1", "2", "3", "4", "5"])
        try app.register("org.example.Editor", ["limit": .uint32(2), "title": .string("Editor")])
        #expect(try app.property("Limit") == .uint32(2))
        #expect(try app.property("UndoDepth") == .uint32(2))
        #expect(try app.property("UndoName") == .string("5"))
        #expect(try app.property("Title") == .string("Editor"))
        try app.register("org.example.Editor", ["limit": .uint32(0)])
        #expect(try app.property("Limit") == .uint32(100), "0 means the config's value")
    }

    @Test func theProcessOptionNamesARunningProcessOfTheUsersOwn() throws {
        let f = try DaemonFixture()
        let app = try f.app()
        // As root (as make test runs), a process of user nobody is another user's.
        let nobody = getuid() == 0 ? try Self.nobody(f) : nil
        let refusals: [(UInt32, String)] = [(UInt32.max, "no running process")]
            + (nobody.map { [(UInt32($0.process.processIdentifier), "another user")] } ?? [])
        for (pid, why) in refusals {
            let error = errorOf { () throws(DBusError) in try app.register("org.undod.Shell", ["process": .uint32(pid)]) }
            #expect(error?.name == "org.freedesktop.DBus.Error.InvalidArgs", "pid \(pid)")
            #expect(error?.message.contains("The option process names \(pid), ") == true, "\(error?.message ?? "")")
            #expect(error?.message.contains(why) == true, "\(error?.message ?? "")")
        }
        let wrongType = errorOf { () throws(DBusError) in try app.register("org.undod.Shell", ["process": .int32(1)]) }
        #expect(wrongType?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(try f.managerProperty("FocusedStack") == .objectPath("/"), "nothing was created")
        // The test's own process, and 0 (none), are accepted.
        let path = try app.register("org.undod.Shell", ["process": .uint32(UInt32(getpid()))])
        #expect(try app.register("org.undod.Shell", ["process": .uint32(0)]) == path)
        // A stack being adopted while the option is refused stays as it was.
        let again = errorOf { () throws(DBusError) in try app.register("org.undod.Shell", ["process": .uint32(.max), "title": .string("T")]) }
        #expect(again?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(try app.property("Title") == .string("org.undod.Shell"))
    }

    /// A process of user nobody (65534), running while the result is kept.
    static func nobody(_ f: DaemonFixture) throws -> ScriptedProcess {
        let child = try ScriptedProcess(["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                                         "/usr/bin/python3", "-c",
                                         "import json,os,sys; print(json.dumps({'event':'ready','uid':os.getuid()}), flush=True); sys.stdin.read()"],
                                        loop: f.loop)
        let ready = try child.next(event: "ready")
        #expect(ready["uid"] as? Int == 65534)
        return child
    }

    @Test func focusFollowsRegisterActivatePushAndSetFocus() throws {
        let f = try DaemonFixture()
        let signals = try f.recordSignals()
        #expect(try f.managerProperty("FocusedStack") == .objectPath("/"))
        #expect(try f.managerProperty("FocusStrategy") == .string("recent"))
        #expect(try f.managerProperty("Version")?.string?.isEmpty == false)
        let noFocus = errorOf { () throws(DBusError) in try f.manager("UndoFocused") }
        #expect(noFocus?.name == undodError("NoFocusedStack"))
        let noFocusRedo = errorOf { () throws(DBusError) in try f.manager("RedoFocused") }
        #expect(noFocusRedo?.name == undodError("NoFocusedStack"))

        let a = try f.app("app.a", pushing: ["a1"])
        let b = try f.app("app.b", pushing: ["b1"])
        #expect(try f.managerProperty("FocusedStack") == .objectPath(b.stack))
        _ = try a.call("Activate")
        #expect(try f.managerProperty("FocusedStack") == .objectPath(a.stack))
        try b.push("b2")
        #expect(try f.managerProperty("FocusedStack") == .objectPath(b.stack), "a push moves focus")
        _ = try f.manager("SetFocus", [.objectPath(a.stack)])
        #expect(try f.managerProperty("FocusedStack") == .objectPath(a.stack))
        let undone = try f.manager("UndoFocused")
        #expect(undone == [.objectPath(a.stack), .uint64(try #require(a.applied.first?.group)), .string("a1")])
        let redone = try f.manager("RedoFocused")
        #expect(redone.first == .objectPath(a.stack))
        #expect(a.applied.map(\.direction) == ["undo", "redo"])

        let hidden = try f.app("app.hidden", pushing: ["h1"], options: ["global_trigger": .bool(false)])
        #expect(try f.managerProperty("FocusedStack") == .objectPath(a.stack),
                "a stack that opted out is never focused")
        let optedOut = errorOf { () throws(DBusError) in try f.manager("SetFocus", [.objectPath(hidden.stack)]) }
        #expect(optedOut?.name == undodError("TriggerDisabled"))

        try b.push("b3")
        a.quit()
        b.quit()
        #expect(f.wait { signals.announced("/org/undod/Undo1", "FocusedStack", .objectPath("/")) },
                "focus falls away when every focusable owner is gone")
        #expect(try f.managerProperty("FocusedStack") == .objectPath("/"))
        let detached = errorOf { () throws(DBusError) in try f.manager("SetFocus", [.objectPath(a.stack)]) }
        #expect(detached?.name == undodError("NoOwner"))
        let unknown = errorOf { () throws(DBusError) in
            try f.manager("SetFocus", [.objectPath("/org/undod/Undo1/stack/999")])
        }
        #expect(unknown?.name == undodError("UnknownStack"))
    }

    @Test func focusFallsToTheMostRecentlyActiveRemainingStack() throws {
        let f = try DaemonFixture()
        let a = try f.app("app.a", pushing: ["a1"])
        let b = try f.app("app.b", pushing: ["b1"])
        let c = try f.app("app.c", pushing: ["c1"])
        _ = try a.call("Activate")
        _ = try c.call("Activate")
        #expect(try f.managerProperty("FocusedStack") == .objectPath(c.stack))
        _ = try c.call("Close", [.bool(false)])
        #expect(try f.managerProperty("FocusedStack") == .objectPath(a.stack))
        _ = b
    }

    @Test func forgetDeletesOnlyDetachedStacks() throws {
        let f = try DaemonFixture()
        let signals = try f.recordSignals()
        let app = try f.app("org.example.Editor", pushing: ["1"])
        let path = app.stack
        #expect(signals.arguments(of: "InterfacesAdded").contains { $0.first == .objectPath(path) })
        let live = errorOf { () throws(DBusError) in try f.manager("Forget", [.objectPath(path)]) }
        #expect(live?.name == undodError("NotDetached"))
        _ = try app.call("Close", [.bool(false)])
        #expect(try app.property("Owner") == .string(""))
        _ = try f.manager("Forget", [.objectPath(path)])
        #expect(f.wait { signals.arguments(of: "InterfacesRemoved").contains { $0.first == .objectPath(path) } })
        let gone = errorOf { () throws(DBusError) in try f.stack(path, "History") }
        #expect(gone?.name == "org.freedesktop.DBus.Error.UnknownObject")
        let again = errorOf { () throws(DBusError) in try f.manager("Forget", [.objectPath(path)]) }
        #expect(again?.name == undodError("UnknownStack"))
        // A new registration makes a new stack with a new number.
        let fresh = try app.register("org.example.Editor")
        #expect(fresh != path)
    }

    @Test func getManagedObjectsListsStacks() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Editor", pushing: ["1"])
        let reply = try f.watcher.callAndWait(
            destination: "org.undod.Undo1", path: "/org/undod/Undo1",
            interface: "org.freedesktop.DBus.ObjectManager", member: "GetManagedObjects")
        guard case .dict(_, _, let entries)? = reply.first else {
            Issue.record("GetManagedObjects answered \(reply)")
            return
        }
        #expect(entries.map(\.key) == [.objectPath(app.stack)])
        let interfaces = entries.first?.value.stringDictionary
        #expect(interfaces?["org.undod.Undo1.Stack"]?.stringDictionary?["UndoName"] == .string("1"))
    }

    /// The `Owner` in a PropertiesChanged signal's arguments, if any.
    static func owner(in arguments: [DBusValue]) -> String? {
        guard arguments.first == .string("org.undod.Undo1.Stack") else { return nil }
        return arguments.dropFirst().first?.stringDictionary?["Owner"]?.string
    }
}
