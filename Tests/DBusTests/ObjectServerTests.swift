import BusHarness
import DBus
import Testing

/// Dispatch, errors, standard interfaces and signals of exported objects.
@Suite struct ObjectServerTests {
    /// An object with a method, a signal and a property that tests can change.
    final class Counter {
        var value: UInt32 = 0
        func interface() -> Interface {
            Interface("test.Counter", doc: "Counts.", methods: [
                .init("Add", inputs: [.init("amount", "u")], outputs: [.init("total", "u")], doc: "Adds.") {
                    [unowned self] call in
                    self.value += call.arguments[0].uint32 ?? 0
                    call.reply([.uint32(self.value)])
                },
                .init("Hang", doc: "Never answers.") { _ in },
            ], signals: [
                .init("Added", arguments: [.init("total", "u")], doc: "After Add."),
            ], properties: [
                .init("Total", "u", doc: "The total.") { [unowned self] in .uint32(self.value) },
            ])
        }
    }

    @Test func dispatchesAndChecksSignatures() throws {
        let f = try Fixture()
        let counter = Counter()
        f.objects.export(path: "/counter", interfaces: [counter.interface()])
        #expect(try f.call("/counter", "test.Counter", "Add", [.uint32(2)]) == [.uint32(2)])

        let wrong = errorOf { () throws(DBusError) in try f.call("/counter", "test.Counter", "Add", [.string("2")]) }
        #expect(wrong?.name == DBusError.Names.invalidArgs)
        #expect(wrong?.message.contains("(u)") == true)
        let none = errorOf { () throws(DBusError) in try f.call("/counter", "test.Counter", "Add") }
        #expect(none?.name == DBusError.Names.invalidArgs)
        #expect(counter.value == 2, "a refused call changed nothing")

        let unknown = errorOf { () throws(DBusError) in try f.call("/counter", "test.Counter", "Subtract") }
        #expect(unknown?.name == DBusError.Names.unknownMethod)
        let noObject = errorOf { () throws(DBusError) in try f.call("/nothing", "test.Counter", "Add", [.uint32(1)]) }
        #expect(noObject?.name == DBusError.Names.unknownObject)
        let noInterface = errorOf { () throws(DBusError) in try f.call("/counter", "test.Nope", "Add", [.uint32(1)]) }
        #expect(noInterface?.name == DBusError.Names.unknownInterface)
        // The server still answers afterwards.
        #expect(try f.call("/counter", "test.Counter", "Add", [.uint32(1)]) == [.uint32(3)])
    }

    @Test func propertiesGetGetAllAndChanges() throws {
        let f = try Fixture()
        let counter = Counter()
        f.objects.export(path: "/counter", interfaces: [counter.interface()])
        counter.value = 7
        let got = try f.call("/counter", StandardInterface.properties, "Get", [.string("test.Counter"), .string("Total")])
        #expect(got == [.variant(.uint32(7))])
        let all = try f.call("/counter", StandardInterface.properties, "GetAll", [.string("test.Counter")])
        #expect(all.first?.stringDictionary?["Total"] == .uint32(7))
        let set = errorOf { () throws(DBusError) in
            try f.call("/counter", StandardInterface.properties, "Set",
                       [.string("test.Counter"), .string("Total"), .variant(.uint32(1))])
        }
        #expect(set?.name == DBusError.Names.propertyReadOnly)
        let missing = errorOf { () throws(DBusError) in
            try f.call("/counter", StandardInterface.properties, "Get", [.string("test.Counter"), .string("Nope")])
        }
        #expect(missing?.name == DBusError.Names.unknownProperty)

        // A second connection sees PropertiesChanged.
        let watcher = try Connection(address: f.bus.address, loop: f.loop)
        defer { watcher.close() }
        var seen: [DBusValue] = []
        var subscribed = false
        watcher.subscribe(SignalMatch(sender: f.server.uniqueName, path: "/counter",
                                      interface: StandardInterface.properties, member: "PropertiesChanged")) {
            seen = $0.arguments
        }
        // The AddMatch is in order before this Ping on the same connection.
        _ = try watcher.callAndWait(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                    interface: "org.freedesktop.DBus.Peer", member: "Ping")
        subscribed = true
        counter.value = 9
        f.objects.propertiesChanged(path: "/counter", interface: "test.Counter", values: ["Total": .uint32(counter.value)])
        #expect(subscribed && f.wait { !seen.isEmpty })
        #expect(seen.first == .string("test.Counter"))
        #expect(seen.dropFirst().first?.stringDictionary?["Total"] == .uint32(9))
    }

    @Test func foreignToolsIntrospectAndReadProperties() throws {
        let f = try Fixture()
        let counter = Counter()
        counter.value = 42
        f.objects.export(path: "/org/test/counter", interfaces: [counter.interface()])
        let gdbus = try runTool(["gdbus", "introspect", "--address", f.bus.address, "--dest", f.server.uniqueName,
                                 "--object-path", "/org/test/counter"], loop: f.loop)
        #expect(gdbus.status == 0, "\(gdbus.errors)")
        for needle in ["test.Counter", "Add(", "Hang(", "Added(", "readonly u Total", "org.freedesktop.DBus.Properties"] {
            #expect(gdbus.output.contains(needle), "gdbus introspect lacks \(needle)")
        }
        let busctl = try runTool(["busctl", "--address=\(f.bus.address)", "get-property", f.server.uniqueName,
                                  "/org/test/counter", "test.Counter", "Total"], loop: f.loop)
        #expect(busctl.status == 0, "\(busctl.errors)")
        #expect(busctl.output.trimmingWhitespace == "u 42")
        // Intermediate nodes lead to the object.
        let root = try f.call("/org", StandardInterface.introspectable, "Introspect")
        #expect(root.first?.string?.contains("<node name=\"test\"/>") == true)
    }

    /// Child nodes follow objects as they come and go: a node stays while
    /// any object lies below it, and re-exporting an object counts it once.
    @Test func childNodesFollowExportsAndRemovals() throws {
        let f = try Fixture()
        func children(of path: String) throws -> [String] {
            let xml = try f.call(path, StandardInterface.introspectable, "Introspect").first?.string ?? ""
            let prefix = "  <node name=\""
            return xml.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map {
                String($0.dropFirst(prefix.count).prefix { $0 != "\"" })
            }
        }
        let counter = Counter()
        for path in ["/a/b/c", "/a/b/d", "/a/e", "/a/e"] { f.objects.export(path: path, interfaces: [counter.interface()]) }
        #expect(try children(of: "/") == ["a"])
        #expect(try children(of: "/a") == ["b", "e"])
        #expect(try children(of: "/a/b") == ["c", "d"])
        f.objects.unexport(path: "/a/b/c")
        #expect(try children(of: "/a") == ["b", "e"])
        f.objects.unexport(path: "/a/b/d")
        #expect(try children(of: "/a") == ["e"])
        f.objects.unexport(path: "/a/e")
        #expect(throws: DBusError.self) { try children(of: "/a") }
    }

    /// How a call ended, once it has (and the object it called, kept alive).
    final class Outcome {
        let counter: Counter
        var result: Result<Message, DBusError>?
        init(_ counter: Counter) { self.counter = counter }
    }

    /// Exports a counter on the server and calls its `Hang` (never
    /// answered) from the client; the outcome fills when the call ends.
    static func hangingCall(_ f: Fixture, timeoutMilliseconds: Int) throws -> Outcome {
        let counter = Counter()
        f.objects.export(path: "/counter", interfaces: [counter.interface()])
        let outcome = Outcome(counter)
        let call = try Message.methodCall(destination: f.server.uniqueName, path: "/counter",
                                          interface: "test.Counter", member: "Hang")
        f.client.call(call, timeoutMilliseconds: timeoutMilliseconds) { outcome.result = $0 }
        return outcome
    }

    @Test func aHungPeerDoesNotDelayOtherCalls() throws {
        let f = try Fixture()
        var add: Result<Message, DBusError>?
        let hang = try Self.hangingCall(f, timeoutMilliseconds: 60_000)
        let addCall = try Message.methodCall(destination: f.server.uniqueName, path: "/counter",
                                             interface: "test.Counter", member: "Add", arguments: [.uint32(5)])
        f.client.call(addCall, timeoutMilliseconds: 60_000) { add = $0 }
        #expect(f.wait { add != nil })
        #expect(hang.result.map { _ in true } == nil, "the hung call is still waiting when the other is answered")
        #expect((try? add?.get().arguments) == [.uint32(5)])
    }

    /// A timed-out call's handler may send another call at once (KWin's
    /// script unloaded then loaded again, the next notification): the
    /// timed-out call is no longer held while its handler runs (once, a
    /// handler's call met the open access and stopped the process).
    @Test func aTimedOutCallsHandlerMaySendAnotherCall() throws {
        let f = try Fixture()
        let counter = Counter()
        f.objects.export(path: "/counter", interfaces: [counter.interface()])
        var next: Result<Message, DBusError>?
        var first: DBusError?
        let hang = try Message.methodCall(destination: f.server.uniqueName, path: "/counter",
                                          interface: "test.Counter", member: "Hang")
        f.client.call(hang, timeoutMilliseconds: 100) { result in
            if case .failure(let error) = result { first = error }
            guard let add = try? Message.methodCall(destination: f.server.uniqueName, path: "/counter",
                                                     interface: "test.Counter", member: "Add",
                                                     arguments: [.uint32(3)]) else { return }
            f.client.call(add, timeoutMilliseconds: 5_000) { next = $0 }
        }
        #expect(f.wait { next != nil })
        #expect(first?.name == DBusError.Names.noReply)
        #expect((try? next?.get().arguments) == [.uint32(3)])
    }

    @Test func aCallWithoutAnAnswerFailsWithNoReplyAtItsTimeout() throws {
        let f = try Fixture()
        let hang = try Self.hangingCall(f, timeoutMilliseconds: 300)
        #expect(f.wait { hang.result != nil })
        if case .failure(let error) = hang.result {
            #expect(error.name == DBusError.Names.noReply)
        } else {
            Issue.record("the hung call did not fail: \(String(describing: hang.result))")
        }
    }

    @Test func aCallToAPeerThatLeavesFailsWithoutWaitingForItsTimeout() throws {
        let f = try Fixture()
        let hang = try Self.hangingCall(f, timeoutMilliseconds: 60_000)
        // The server has the call once it answers a call sent after it.
        _ = try f.call("/counter", "test.Counter", "Add", [.uint32(1)])
        f.server.close()
        #expect(f.wait(timeout: 10_000) { hang.result != nil })
        if case .failure(let error) = hang.result {
            #expect(error.name == DBusError.Names.noReply, "the bus answers for a peer that left: \(error)")
        } else {
            Issue.record("the call to a peer that left did not fail: \(String(describing: hang.result))")
        }
    }

    @Test func closingFailsTheCallsThatWait() throws {
        let f = try Fixture()
        let hang = try Self.hangingCall(f, timeoutMilliseconds: 60_000)
        _ = try f.call("/counter", "test.Counter", "Add", [.uint32(1)])
        f.client.close()
        #expect(f.wait { hang.result != nil })
        if case .failure(let error) = hang.result {
            #expect(error.name == DBusError.Names.disconnected)
        } else {
            Issue.record("a call left waiting at close did not fail: \(String(describing: hang.result))")
        }
        // A call on the closed connection fails too, on the loop.
        var late: Result<Message, DBusError>?
        let another = try Message.methodCall(destination: f.server.uniqueName, path: "/counter",
                                             interface: "test.Counter", member: "Hang")
        f.client.call(another, timeoutMilliseconds: 60_000) { late = $0 }
        #expect(late.map { _ in true } == nil, "the handler runs on the loop, not inside call")
        #expect(f.wait { late != nil })
        if case .failure(let error) = late { #expect(error.name == DBusError.Names.disconnected) }
    }

    @Test func signalsReachSubscribersAndNameOwnerChanged() throws {
        let f = try Fixture()
        var totals: [DBusValue] = []
        f.client.subscribe(SignalMatch(interface: "test.Counter", member: "Added")) { totals += $0.arguments }
        var gone: [String] = []
        f.client.onNameOwnerChanged { name, old, new in
            if new.isEmpty, name == old { gone.append(name) }
        }
        _ = try f.client.callAndWait(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                     interface: "org.freedesktop.DBus.Peer", member: "Ping")
        f.objects.emitSignal(path: "/counter", interface: "test.Counter", member: "Added", arguments: [.uint32(3)])
        #expect(f.wait { totals == [.uint32(3)] })

        let peer = try Connection(address: f.bus.address, loop: f.loop)
        let name = peer.uniqueName
        peer.close()
        #expect(f.wait { gone.contains(name) })
    }

    @Test func objectManagerAnnouncesObjects() throws {
        let f = try Fixture()
        f.objects.export(path: "/root", interfaces: [Interface("test.Root")])
        f.objects.enableObjectManager(at: "/root")
        var added: [String] = []
        var removed: [String] = []
        f.client.subscribe(SignalMatch(interface: StandardInterface.objectManager)) { message in
            let path = message.arguments.first?.string ?? ""
            if message.member == "InterfacesAdded" { added.append(path) } else { removed.append(path) }
        }
        _ = try f.client.callAndWait(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                     interface: "org.freedesktop.DBus.Peer", member: "Ping")
        let counter = Counter()
        f.objects.export(path: "/root/child/1", interfaces: [counter.interface()])
        #expect(f.wait { added == ["/root/child/1"] })
        let managed = try f.call("/root", StandardInterface.objectManager, "GetManagedObjects")
        guard case .dict(_, _, let entries)? = managed.first else {
            Issue.record("GetManagedObjects answered \(managed)")
            return
        }
        #expect(entries.map(\.key) == [.objectPath("/root/child/1")])
        f.objects.unexport(path: "/root/child/1")
        #expect(f.wait { removed == ["/root/child/1"] })
    }

    @Test func aNameCanBeOwnedOnce() throws {
        let f = try Fixture()
        #expect(try f.server.requestName("org.undod.Test"))
        #expect(try f.client.requestName("org.undod.Test") == false)
    }
}

extension String {
    var trimmingWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
