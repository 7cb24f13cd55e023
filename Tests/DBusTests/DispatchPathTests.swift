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
            let copy = try #require(template.copy())
            #expect(copy.signature == "u")
            answers += try f.client.callAndWait(copy, timeoutMilliseconds: 5_000).arguments
        }
        #expect(answers == [.uint32(5), .uint32(10), .uint32(15)])
        // The template itself was never sent and still can be.
        #expect(try f.client.callAndWait(template, timeoutMilliseconds: 5_000).arguments == [.uint32(20)])
    }
}
