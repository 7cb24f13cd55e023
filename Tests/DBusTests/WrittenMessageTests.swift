@testable import DBus
import Testing

/// Messages built here are sent as `WireEncoder` writes them, without libdbus
/// reading them back first. So every value the contract uses must make
/// bytes libdbus accepts as they are (release builds send them unchecked),
/// what would make bytes it refuses must be refused before anything is
/// written, and what sending changes (serial, flags) must change in the
/// bytes.
@Suite struct WrittenMessageTests {
    /// Whether libdbus reads `bytes` as a valid message, as the bus would.
    private static func libdbusAccepts(_ bytes: [UInt8]) -> Bool {
        (try? Message(received: WireBytes(copying: bytes))) != nil
    }

    /// The bytes `message` is sent as, copied while what holds them lives
    /// (an object may go after its last use, and its memory with it).
    private static func bytes(of message: Message) throws -> [UInt8] {
        let wire = try #require(message.bytesToSend)
        return withExtendedLifetime(wire) { Array(wire.bytes) }
    }

    @Test(arguments: ValueRoundTripTests.cases.map(\.0))
    func everyValueMakesACallAndAReplyLibdbusAccepts(_ name: String) throws {
        let value = try #require(ValueRoundTripTests.cases.first { $0.0 == name }?.1)
        let call = try Message.methodCall(destination: ":1.7", path: "/echo", interface: "test.Echo", member: "Echo",
                                          arguments: [value])
        let callBytes = try Self.bytes(of: call)
        #expect(Self.libdbusAccepts(callBytes), "the call carrying \(name) is not D-Bus")
        // What libdbus reads from the bytes is what was asked for.
        #expect(call.kind == .methodCall)
        #expect(call.path == "/echo" && call.interface == "test.Echo" && call.member == "Echo")
        #expect(call.destination == ":1.7")
        #expect(call.signature == value.signature)
        #expect(call.arguments == [value])

        let received = try Message(received: WireBytes(copying: callBytes))
        let reply = try received.makeReply([value, .string("after")])
        let replyBytes = try Self.bytes(of: reply)
        #expect(Self.libdbusAccepts(replyBytes), "the reply carrying \(name) is not D-Bus")
        #expect(reply.kind == .methodReturn && reply.noReplyExpected)
        #expect(reply.replySerial == received.serial)
        #expect(reply.arguments == [value, .string("after")])
    }

    /// The bound a message is written with is only where its memory
    /// starts: one that falls short (here none at all) makes the encoder
    /// grow its memory, and the bytes are the same as with a bound that
    /// fits, and libdbus reads them.
    @Test func aBoundThatFallsShortGivesTheSameBytes() throws {
        let arguments: [DBusValue] = [
            .string(String(repeating: "x", count: 5_000)), .byteArrays([[1, 2, 3], Array(repeating: 7, count: 70_000)]),
            .vardict(["a": .uint64(1), "b": .strings(["c", "d"])]), .structure([.int16(-2), .variant(.double(0.5))]),
        ]
        let fields = WireEncoder.Fields(path: "/a/b", interface: "a.B", member: "M", destination: ":1.2")
        let short = try WireEncoder.message(type: 1, flags: 0, serial: 3, fields: fields, arguments: arguments,
                                            bodyBytes: 0)
        let fitting = try WireEncoder.message(type: 1, flags: 0, serial: 3, fields: fields, arguments: arguments,
                                              bodyBytes: try MessageCoder.measure(arguments).bytes)
        let written = withExtendedLifetime((short, fitting)) {
            #expect(short.bytes.elementsEqual(fitting.bytes), "the bytes differ")
            return Array(short.bytes)
        }
        #expect(Self.libdbusAccepts(written))
        let read = try Message(received: WireBytes(copying: written))
        #expect(read.arguments == arguments && read.path == "/a/b" && read.destination == ":1.2")
    }

    @Test func theSerialAndFlagsAreSetInTheBytes() throws {
        let call = try Message.methodCall(destination: nil, path: "/x", interface: nil, member: "M",
                                          arguments: [.uint32(1)])
        call.serial = 0x0102_0304
        call.setNoReplyExpected()
        call.setNoAutoStart()
        let bytes = try Self.bytes(of: call)
        #expect(Array(bytes[8..<12]) == [4, 3, 2, 1])
        #expect(bytes[2] == WireEncoder.noReplyExpected | WireEncoder.noAutoStart)
        // libdbus, reading the same bytes, agrees.
        let read = try Message(received: WireBytes(copying: bytes))
        #expect(read.serial == 0x0102_0304 && read.noReplyExpected)
        // Set again once libdbus has made its own message of them (`raw`): the bytes sent change.
        #expect(call.path == "/x")
        call.serial = 9
        let again = try Self.bytes(of: call)
        #expect(try Message(received: WireBytes(copying: again)).serial == 9)
    }

    @Test func aCopyHasBytesOfItsOwn() throws {
        let call = try Message.methodCall(destination: nil, path: "/x", interface: nil, member: "M",
                                          arguments: [.string("a"), .uint32(2), .bool(true)])
        let copy = try #require(call.copy())
        copy.serial = 5
        call.serial = 6
        #expect(copy.serial == 5 && call.serial == 6)
        #expect(copy.arguments == call.arguments)
    }

    /// D-Bus allows 64 containers deep; deeper is refused with an error, and
    /// a message deeper than 32 is still validated by libdbus before it goes.
    @Test func nestingIsBounded() throws {
        func nested(_ depth: Int) -> DBusValue {
            (0..<depth).reduce(DBusValue.uint32(1)) { inner, _ in .variant(inner) }
        }
        #expect(throws: DBusError.self) {
            try Message.methodCall(destination: nil, path: "/x", interface: nil, member: "M", arguments: [nested(65)])
        }
        let deep = try Message.methodCall(destination: nil, path: "/x", interface: nil, member: "M",
                                          arguments: [nested(40)])
        // Marshalled by libdbus.
        #expect(Self.libdbusAccepts(try Self.bytes(of: deep)))
        #expect(deep.arguments == [nested(40)])
    }

    @Test func aSignatureOver255BytesIsRefused() throws {
        let fits = Array(repeating: DBusValue.uint32(1), count: 255)
        #expect(throws: Never.self) {
            try Message.methodCall(destination: nil, path: "/x", interface: nil, member: "M", arguments: fits)
        }
        #expect(throws: DBusError.self) {
            try Message.methodCall(destination: nil, path: "/x", interface: nil, member: "M",
                                   arguments: fits + [.uint32(2)])
        }
        // A variant's own signature counts the same.
        let longStruct = DBusValue.structure(Array(repeating: .byte(1), count: 254))
        #expect(throws: DBusError.self) {
            try Message.methodCall(destination: nil, path: "/x", interface: nil, member: "M",
                                   arguments: [.variant(longStruct)])
        }
    }
}
