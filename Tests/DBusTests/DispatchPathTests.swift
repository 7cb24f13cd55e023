import BusHarness
import DBus
import Testing

/// Calls that take the quick way to an object's own methods, the standard
/// interfaces beside them, and copies of one message sent on their own.
@Suite struct DispatchPathTests {
    static func counter(_ total: Box) -> Interface {
        Interface("test.Counter", methods: [
            .init("Add", inputs: [.init("amount", "u")], outputs: [.init("total", "u")]) { call in
                total.value += call.arguments[0].uint32 ?? 0
                call.reply([.uint32(total.value)])
            },
        ])
    }

    final class Box { var value: UInt32 = 0 }

    @Test func ownMethodsWithAndWithoutInterfaceAndStandardOnes() throws {
        let f = try Fixture()
        let total = Box()
        f.objects.export(path: "/counter", interfaces: [Self.counter(total)])
        // Without an interface the first method of that name answers.
        let bare = try Message.methodCall(destination: f.server.uniqueName, path: "/counter", interface: nil,
                                          member: "Add", arguments: [.uint32(2)])
        #expect(try f.client.callAndWait(bare, timeoutMilliseconds: 5_000).arguments == [.uint32(2)])
        // The standard interfaces still answer beside the own ones.
        let xml = try f.call("/counter", StandardInterface.introspectable, "Introspect")
        #expect(xml.first?.string?.contains("test.Counter") == true)
        let introspectBare = try Message.methodCall(destination: f.server.uniqueName, path: "/counter",
                                                    interface: nil, member: "Introspect")
        #expect(try f.client.callAndWait(introspectBare, timeoutMilliseconds: 5_000).arguments.first?.string != nil)
        // A method of an own interface that does not exist is still unknown.
        let missing = errorOf { () throws(DBusError) in try f.call("/counter", "test.Counter", "Subtract") }
        #expect(missing?.name == DBusError.Names.unknownMethod)
        let wrong = errorOf { () throws(DBusError) in try f.call("/counter", "test.Counter", "Add", [.string("x")]) }
        #expect(wrong?.name == DBusError.Names.invalidArgs)
    }

    @Test func copiesOfAMessageAreSentOnTheirOwn() throws {
        let f = try Fixture()
        let total = Box()
        f.objects.export(path: "/counter", interfaces: [Self.counter(total)])
        let template = try Message.methodCall(destination: f.server.uniqueName, path: "/counter",
                                              interface: "test.Counter", member: "Add", arguments: [.uint32(5)])
        var answers: [DBusValue] = []
        for _ in 0..<3 {
            let copy = template.copy()
            #expect(copy.signature == "u")
            answers += try f.client.callAndWait(copy, timeoutMilliseconds: 5_000).arguments
        }
        #expect(answers == [.uint32(5), .uint32(10), .uint32(15)])
        // The template itself was never sent and still can be.
        #expect(try f.client.callAndWait(template, timeoutMilliseconds: 5_000).arguments == [.uint32(20)])
    }
}

/// Messages built body first carry the same header as libdbus's own
/// constructors make, and foreign clients read them.
@Suite struct MessageBuildingTests {
    @Test func signalsAndCallsHaveTheirHeaderFields() throws {
        let signal = try Message.signal(path: "/a/b", interface: "test.If", member: "Changed",
                                        arguments: [.uint64(7), .string("x"), .bool(true)])
        #expect(signal.kind == .signal)
        #expect(signal.path == "/a/b" && signal.interface == "test.If" && signal.member == "Changed")
        #expect(signal.noReplyExpected, "libdbus marks signals as expecting no reply")
        #expect(signal.signature == "tsb")
        #expect(signal.arguments == [.uint64(7), .string("x"), .bool(true)])

        let call = try Message.methodCall(destination: ":1.7", path: "/a", interface: nil, member: "Do",
                                          arguments: [.objectPath("/x"), .uint64(1), .string("undo"),
                                                      .byteArrays([[1, 2], []])])
        #expect(call.kind == .methodCall)
        #expect(call.destination == ":1.7" && call.path == "/a" && call.interface == nil && call.member == "Do")
        #expect(!call.noReplyExpected)
        #expect(call.signature == "otsaay")
    }

    @Test func repliesOfSeveralValuesReachOurClientAndGdbus() throws {
        let f = try Fixture()
        f.objects.export(path: "/three", interfaces: [
            Interface("test.Three", methods: [
                .init("Get", outputs: [.init("o", "o"), .init("t", "t"), .init("s", "s")]) { call in
                    call.reply([.objectPath("/x/y"), .uint64(42), .string("Typing")])
                },
            ]),
        ])
        #expect(try f.call("/three", "test.Three", "Get") == [.objectPath("/x/y"), .uint64(42), .string("Typing")])
        let gdbus = try runTool(["gdbus", "call", "--address", f.bus.address, "--dest", f.server.uniqueName,
                                 "--object-path", "/three", "--method", "test.Three.Get"], loop: f.loop)
        #expect(gdbus.status == 0, "\(gdbus.errors)")
        #expect(gdbus.output.contains("objectpath '/x/y'") && gdbus.output.contains("42")
            && gdbus.output.contains("'Typing'"))
    }
}
