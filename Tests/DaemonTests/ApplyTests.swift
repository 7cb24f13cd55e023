import BusHarness
import DBus
import Loop
import Testing

/// Calls back to the owner's `Apply`: queues, timeouts, failures, and an
/// app that hangs or dies.
@Suite struct ApplyTests {
    static let shortTimeout = "[apply]\ntimeout_ms = 1500\n"

    @Test func aHungAppDoesNotDelayAnotherAppsUndo() throws {
        let f = try DaemonFixture()
        let hung = try f.app("app.hung", pushing: ["h1"])
        let quick = try f.app("app.quick", pushing: ["q1"])
        // The test holds the first app's Apply: it answers only when released.
        var held: [MethodCall] = []
        hung.behaviour = .custom { held.append($0) }
        let slow = try f.send(from: f.watcher, hung.stack, "org.undod.Undo1.Stack", "Undo")
        #expect(f.wait { held.count == 1 })
        #expect(try f.stack(quick.stack, "Undo") == [.uint64(quick.applied.first?.group ?? 0), .string("q1")])
        #expect(!slow.isDone, "the held app's undo is still waiting when the other is answered")
        held.first?.reply()
        #expect(f.wait { slow.isDone })
        #expect(slow.error == nil)
        #expect(try hung.property("UndoDepth") == .uint32(0))
    }

    @Test func aQueuedKeyPressWhoseFocusMovedAppliesNothing() throws {
        let f = try DaemonFixture()
        let a = try f.app("app.a", pushing: ["a1", "a2"])
        var held: [MethodCall] = []
        a.behaviour = .custom { held.append($0) }
        // Two presses of the key while A is in front: the second waits behind the first's Apply.
        let first = try f.send(from: f.watcher, "/org/undod/Undo1", "org.undod.Undo1.Manager", "UndoFocused")
        #expect(f.wait { held.count == 1 })
        let second = try f.send(from: f.watcher, "/org/undod/Undo1", "org.undod.Undo1.Manager", "UndoFocused")
        try f.ping()
        // The user moves to B before A answers.
        let b = try f.app("app.b", pushing: ["b1"])
        #expect(try f.managerProperty("FocusedStack")?.string == b.stack)
        held.first?.reply()
        #expect(f.wait { first.isDone && second.isDone })
        #expect(first.error == nil)
        #expect(second.error?.name == undodError("NoFocusedStack"), "\(String(describing: second.error))")
        #expect(second.error?.message.contains("focus moved away from") == true, "\(second.error?.message ?? "")")
        #expect(held.count == 1, "A was asked once")
        #expect(try a.property("UndoDepth") == .uint32(1))
        #expect(b.applied.isEmpty, "nor was the press taken to B")
    }

    @Test func theVerboseLogSaysARefusalInWords() throws {
        let f = try DaemonFixture(config: Self.shortTimeout, extraArguments: ["--verbose"])
        let hung = try f.app("app.hung", pushing: ["h1"])
        hung.behaviour = .hang
        let slow = try f.send(from: f.watcher, hung.stack, "org.undod.Undo1.Stack", "Undo")
        #expect(f.wait { slow.isDone })
        // The stack now waits for the late answer: the next undo is refused Busy.
        let busy = errorOf { () throws(DBusError) in try f.stack(hung.stack, "Undo") }
        #expect(busy?.name == undodError("Busy"))
        #expect(f.waitForLogKey("call.refused", holding: undodError("Busy")), "\(f.daemon.log)")
        let sentence = try #require(busy?.message)
        #expect(f.daemon.logKeyCount("call.refused", holding: sentence) == 1, "the caller's sentence: \(f.daemon.log)")
        for debugText in ["awaitingLateAnswer(", "UndoCore.", "timeout(milliseconds"] {
            #expect(!f.daemon.log.contains(debugText), "no Swift debug text in the log: \(debugText)")
        }
    }

    @Test func aHungAppsUndoTimesOutAndLeavesTheStackAsItWas() throws {
        let f = try DaemonFixture(config: Self.shortTimeout)
        let hung = try f.app("app.hung", pushing: ["h1"])
        hung.behaviour = .hang
        let slow = try f.send(from: f.watcher, hung.stack, "org.undod.Undo1.Stack", "Undo")
        #expect(f.wait { slow.isDone })
        #expect(slow.error?.name == undodError("Timeout"))
        #expect(slow.error?.message.contains("1500 ms") == true)
        #expect(try hung.property("UndoDepth") == .uint32(1), "a timed-out undo leaves the stack as it was")
        #expect(try hung.property("CanRedo") == .bool(false))
    }

    @Test func anAppKilledDuringApplyLeavesTheStackUnchanged() throws {
        let f = try DaemonFixture()
        let app = try f.app("app.dies", pushing: ["one", "two"])
        let path = app.stack
        let before = try f.stack(path, "History")
        app.behaviour = .hang
        let undo = try f.send(from: f.watcher, path, "org.undod.Undo1.Stack", "Undo")
        #expect(f.wait { app.applied.count == 1 })
        app.quit()
        #expect(f.wait { undo.isDone })
        #expect(undo.error?.name == undodError("NoOwner"))
        #expect(try f.stack(path, "History") == before)
        let heir = try f.app()
        try heir.register("app.dies")
        _ = try heir.call("Undo")
        #expect(heir.applied.first?.payloads == [[1, 0xAA]], "the group that was in flight is still on top")
    }

    @Test func queuedUndosRunOneAtATimeInOrder() throws {
        let f = try DaemonFixture()
        let app = try f.app("app.queue", pushing: ["1", "2", "3"])
        var held: [MethodCall] = []
        app.behaviour = .custom { held.append($0) }
        let answers = try (0..<3).map { _ in try f.send(from: f.watcher, app.stack, "org.undod.Undo1.Stack", "Undo") }
        // A call behind the three: once it is answered, undod has read all three.
        _ = try f.managerProperty("FocusedStack")
        #expect(f.wait { held.count == 1 })
        #expect(app.applied.count == 1, "one Apply per stack at a time")
        for index in 0..<3 {
            #expect(f.wait { held.count == index + 1 })
            held[index].reply()
        }
        #expect(f.wait { answers.allSatisfy(\.isDone) })
        #expect(answers.map { $0.values?.last } == [.string("3"), .string("2"), .string("1")])
        #expect(app.applied.map(\.payloads) == [[[2, 0xAA]], [[1, 0xAA]], [[0, 0xAA]]])
    }

    @Test func theOwnerPushingFromInsideApplyGetsBusyWithoutDeadlock() throws {
        let f = try DaemonFixture()
        let app = try f.app("app.reentrant", pushing: ["1"])
        var pushAnswer: Answer?
        app.behaviour = .custom { [unowned f, unowned app] call in
            // The app calls undod from its Apply handler and waits for the
            // answer before replying: with a blocking daemon, a deadlock.
            let answer = try? f.send(from: app.connection, app.stack, "org.undod.Undo1.Stack", "Push",
                                     [.string("x"), .bytes([9]), .bytes([9]), .vardict([:])])
            pushAnswer = answer
            f.loop.soon {
                f.wait { answer?.isDone == true }
                call.reply()
            }
        }
        let undo = try f.send(from: f.watcher, app.stack, "org.undod.Undo1.Stack", "Undo")
        #expect(f.wait { undo.isDone })
        #expect(undo.values?.last == .string("1"))
        #expect(pushAnswer?.error?.name == undodError("Busy"))
        #expect(try app.property("UndoDepth") == .uint32(0))
        #expect(try app.property("RedoDepth") == .uint32(1), "the refused push changed nothing")
    }

    @Test func ownerMutationsDuringApplyAreBusy() throws {
        let f = try DaemonFixture()
        let app = try f.app("app.busy", pushing: ["1"])
        app.behaviour = .hang
        let undo = try f.send(from: f.watcher, app.stack, "org.undod.Undo1.Stack", "Undo")
        #expect(f.wait { app.applied.count == 1 })
        let mutations: [(String, [DBusValue])] = [
            ("Push", [.string("x"), .bytes([1]), .bytes([1]), .vardict([:])]),
            ("PushGroup", [.string("x"), .array(element: "(ayay)", [.structure([.bytes([1]), .bytes([])])]), .vardict([:])]),
            ("SetClean", []), ("Clear", []), ("Close", [.bool(false)]),
        ]
        for (member, arguments) in mutations {
            let error = errorOf { () throws(DBusError) in try app.call(member, arguments) }
            #expect(error?.name == undodError("Busy"), "\(member) during Apply")
        }
        let reregister = errorOf { () throws(DBusError) in try app.register("app.busy", ["title": .string("T")]) }
        #expect(reregister?.name == undodError("Busy"))
        #expect(!undo.isDone)
        app.quit()
        #expect(f.wait { undo.isDone })
    }

    @Test func aFullQueueAnswersBusyAtOnce() throws {
        let f = try DaemonFixture(config: "[apply]\nqueue = 2\n")
        let app = try f.app("app.full", pushing: ["1", "2", "3", "4"])
        app.behaviour = .hang
        let answers = try (0..<4).map { _ in try f.send(from: f.watcher, app.stack, "org.undod.Undo1.Stack", "Undo") }
        #expect(f.wait { answers[3].isDone })
        #expect(answers[3].error?.name == undodError("Busy"))
        #expect(!answers[0].isDone && !answers[1].isDone && !answers[2].isDone, "one in flight, two waiting")
        app.quit()
        #expect(f.wait { answers.allSatisfy(\.isDone) })
        #expect(answers.prefix(3).allSatisfy { $0.error?.name == undodError("NoOwner") })
    }

    @Test func aClientErrorLeavesTheStackAsItWas() throws {
        let f = try DaemonFixture()
        let app = try f.app("app.fails", pushing: ["1", "2"])
        let before = try f.stack(app.stack, "History")
        app.behaviour = .fail(DBusError(name: "com.example.Error.Disk", message: "disk full"))
        let error = errorOf { () throws(DBusError) in try f.stack(app.stack, "Undo") }
        #expect(error?.name == undodError("ClientFailed"))
        #expect(error?.message.contains("com.example.Error.Disk") == true)
        #expect(error?.message.contains("disk full") == true)
        #expect(try f.stack(app.stack, "History") == before)
        app.behaviour = .apply
        #expect(try f.stack(app.stack, "Undo").last == .string("2"), "the same group can be undone afterwards")
    }

    @Test func anObsoleteGroupIsDropped() throws {
        let f = try DaemonFixture()
        let app = try f.app("app.obsolete", pushing: ["1", "2"])
        app.behaviour = .fail(DBusError(name: undodError("Obsolete"), message: "the file is gone"))
        let error = errorOf { () throws(DBusError) in try f.stack(app.stack, "Undo") }
        #expect(error?.name == undodError("Obsolete"))
        #expect(try app.property("UndoDepth") == .uint32(1))
        #expect(try app.property("RedoDepth") == .uint32(0))
        app.behaviour = .apply
        #expect(try f.stack(app.stack, "Undo").last == .string("1"))
    }

    @Test func aStackThatOptedOutRefusesForeignUndo() throws {
        let f = try DaemonFixture()
        let app = try f.app("app.private", pushing: ["1"], options: ["global_trigger": .bool(false)])
        #expect(try app.property("GlobalTrigger") == .bool(false))
        let foreign = errorOf { () throws(DBusError) in try f.stack(app.stack, "Undo") }
        #expect(foreign?.name == undodError("TriggerDisabled"))
        let focused = errorOf { () throws(DBusError) in try f.manager("UndoFocused") }
        #expect(focused?.name == undodError("NoFocusedStack"))
        #expect(try app.call("Undo").last == .string("1"), "the owner itself may undo")
    }
}

/// An app's own error is the app's word, whatever its name: an Apply
/// answered with `org.freedesktop.DBus.Error.NoReply` or `…ServiceUnknown`
/// by the app is `ClientFailed`, never `NoOwner`; only the bus's own such
/// errors mean the owner is gone.
@Suite struct AppErrorNameTests {
    @Test(arguments: ["org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.ServiceUnknown"])
    func anAppsErrorNamedLikeTheBussIsClientFailed(name: String) throws {
        let f = try DaemonFixture()
        let app = try ScriptedProcess(["/usr/bin/python3", Repository.client("x11_app.py"), "--bus", f.bus.address],
                                      environment: ["DISPLAY": ""], loop: f.loop)
        try app.next(event: "ready")
        let stack = try app.command(["cmd": "register", "app_id": "org.example.A"])["path"] as? String ?? ""
        try app.command(["cmd": "push", "name": "Edit", "undo": "u", "redo": "r"])
        try app.command(["cmd": "behaviour", "apply": "fail", "error": name])
        let refused = errorOf { () throws(DBusError) in try f.stack(stack, "Undo") }
        #expect(refused?.name == undodError("ClientFailed"), "\(refused?.description ?? "")")
        #expect(refused?.message.contains(name) == true)
        #expect(try f.stackProperty(stack, "UndoDepth") == .uint32(1), "the stack is as it was")
        #expect(try f.stackProperty(stack, "Owner")?.string?.isEmpty == false, "still attached")
    }
}
