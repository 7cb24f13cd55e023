import BusHarness
@testable import DBus
import Testing

/// A call whose arguments `WireDecoder` cannot read is answered
/// `InvalidArgs` before any handler sees it, small or large: there is no
/// other reading to fall back on. The bus validates what it relays, so
/// such bytes cannot come through it; the call is put in where the socket's
/// messages enter (`Connection.route`), as if read, and its answer goes
/// through the bus to a client that awaits it.
@Suite struct UnreadableCallTests {
    @Test(arguments: [16, IncomingLanes<() -> Void>.largeCallBytes * 2])
    func aCallWhoseArgumentsCannotBeReadIsRefused(textBytes: Int) throws {
        let f = try Fixture()
        var served = 0
        f.objects.export(path: "/t", interfaces: [Interface("test.T", methods: [
            .init("Take", inputs: [.init("text", "s")]) { call in
                served += 1
                call.reply()
            },
            .init("Hang") { _ in },
        ])])
        // A real call the client awaits: the refusal answers its serial.
        let hang = try Message.methodCall(destination: f.server.uniqueName, path: "/t", interface: "test.T",
                                          member: "Hang")
        var answer: Result<Message, DBusError>?
        f.client.call(hang, timeoutMilliseconds: 10_000) { answer = $0 }
        var fields = WireEncoder.Fields(path: "/t", interface: "test.T", member: "Take",
                                        destination: f.server.uniqueName)
        fields.sender = f.client.uniqueName
        var bytes = WireEncoder.bytes(serial: hang.serial, fields: fields,
                                      arguments: [.string(String(repeating: "x", count: textBytes))], bodyBytes: 0)
        #expect(bytes.last == 0, "a string ends in NUL")
        bytes[bytes.count - 1] = UInt8(ascii: "x")
        f.server.route(try Message(received: WireBytes(copying: bytes)))
        #expect(f.wait { answer != nil })
        guard case .failure(let error)? = answer else {
            Issue.record("answered \(String(describing: answer))")
            return
        }
        #expect(error.name == DBusError.Names.invalidArgs)
        #expect(served == 0)
        // The same call, readable, is served.
        #expect(try f.call("/t", "test.T", "Take", [.string("fine")]).isEmpty)
        #expect(served == 1)
    }
}
