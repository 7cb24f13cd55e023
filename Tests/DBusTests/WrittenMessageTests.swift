internal import CDBus
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
        libdbusReading(bytes) != nil
    }

    /// A message's header as read: by libdbus, or here.
    struct Reading: Equatable {
        var type: Int32, serial: UInt32, replySerial: UInt32, noReply: Bool
        var path: String?, interface: String?, member: String?, errorName: String?
        var destination: String?, sender: String?, signature: String
    }

    /// What libdbus reads in `bytes` (`dbus_message_demarshal`, which
    /// validates them); nil when it refuses them.
    private static func libdbusReading(_ bytes: [UInt8]) -> Reading? {
        let raw = bytes.withUnsafeBytes { buffer in
            dbus_message_demarshal(buffer.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(buffer.count), nil)
        }
        guard let raw else { return nil }
        defer { dbus_message_unref(raw) }
        func text(_ pointer: UnsafePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }
        return Reading(type: dbus_message_get_type(raw), serial: dbus_message_get_serial(raw),
                       replySerial: dbus_message_get_reply_serial(raw), noReply: dbus_message_get_no_reply(raw) != 0,
                       path: text(dbus_message_get_path(raw)), interface: text(dbus_message_get_interface(raw)),
                       member: text(dbus_message_get_member(raw)), errorName: text(dbus_message_get_error_name(raw)),
                       destination: text(dbus_message_get_destination(raw)), sender: text(dbus_message_get_sender(raw)),
                       signature: text(dbus_message_get_signature(raw)) ?? "")
    }

    /// What this package reads in `bytes` as a message from the bus: its
    /// header reader (`WireHeader(reading:)`, which must not give up on a
    /// header libdbus reads), and a `Message` made of them agreeing.
    private static func ownReading(_ bytes: [UInt8]) throws -> Reading {
        let header = try #require(bytes.withUnsafeBytes { WireHeader(reading: $0) }, "the header reader gave up")
        let fields = header.fields
        let reading = Reading(type: Int32(header.type), serial: header.serial, replySerial: fields.replySerial ?? 0,
                              noReply: header.flags & WireEncoder.noReplyExpected != 0, path: fields.path,
                              interface: fields.interface, member: fields.member, errorName: fields.errorName,
                              destination: fields.destination, sender: fields.sender, signature: header.signature)
        let message = try Message(received: WireBytes(copying: bytes))
        #expect(message.serial == reading.serial && message.replySerial == reading.replySerial)
        #expect(message.noReplyExpected == reading.noReply && message.signature == reading.signature)
        #expect(message.path == reading.path && message.interface == reading.interface)
        #expect(message.member == reading.member && message.errorName == reading.errorName)
        #expect(message.destination == reading.destination && message.sender == reading.sender)
        return reading
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
        // What libdbus reads from the bytes is what was asked for, and what
        // this package reads of them as a message from the bus.
        let libdbus = try #require(Self.libdbusReading(callBytes), "the call carrying \(name) is not D-Bus")
        #expect(libdbus.type == LibDBus.MessageType.methodCall)
        #expect(libdbus.path == "/echo" && libdbus.interface == "test.Echo" && libdbus.member == "Echo")
        #expect(libdbus.destination == ":1.7")
        #expect(libdbus.signature == value.signature)
        #expect(try Self.ownReading(callBytes) == libdbus)
        #expect(call.path == "/echo" && call.signature == value.signature)
        #expect(call.arguments == [value])

        let received = try Message(received: WireBytes(copying: callBytes))
        let reply = try received.makeReply([value, .string("after")])
        let replyBytes = try Self.bytes(of: reply)
        let replyRead = try #require(Self.libdbusReading(replyBytes), "the reply carrying \(name) is not D-Bus")
        #expect(try Self.ownReading(replyBytes) == replyRead)
        #expect(reply.kind == .methodReturn && reply.noReplyExpected)
        #expect(reply.replySerial == received.serial)
        #expect(reply.arguments == [value, .string("after")])
    }

    /// An error reply is written here too, and read the same by libdbus
    /// and by this package.
    @Test func anErrorReplyIsReadAsItWasMeant() throws {
        let call = try Message.methodCall(destination: ":1.9", path: "/x", interface: "a.B", member: "M")
        call.serial = 41
        let received = try Message(received: WireBytes(copying: try Self.bytes(of: call)))
        let reply = try #require(received.makeErrorReply(DBusError(name: "org.example.Error.Odd",
                                                                   message: "It went wrong.")))
        let bytes = try Self.bytes(of: reply)
        let read = try #require(Self.libdbusReading(bytes))
        #expect(read.type == LibDBus.MessageType.error && read.errorName == "org.example.Error.Odd")
        #expect(read.replySerial == 41 && read.signature == "s")
        #expect(try Self.ownReading(bytes) == read)
        #expect(reply.error == DBusError(name: "org.example.Error.Odd", message: "It went wrong."))
    }

    /// A header in big-endian order, with a field this package does not
    /// know (left out, as D-Bus allows), reads as libdbus reads it.
    @Test func aBigEndianHeaderWithAnUnknownFieldReadsAsLibdbusReadsIt() throws {
        var bytes: [UInt8] = [0x42, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 7]  // "B", call, no body, serial 7
        var fields: [UInt8] = [1, 1, 0x6F, 0, 0, 0, 0, 2, 0x2F, 0x61, 0, 0, 0, 0, 0, 0]  // path "/a", padded
        fields += [42, 1, 0x75, 0, 0, 0, 0, 9]  // code 42, u 9
        fields += [3, 1, 0x73, 0, 0, 0, 0, 1, 0x4D, 0]  // member "M"
        bytes += [0, 0, 0, UInt8(fields.count)] + fields + [0, 0, 0, 0, 0, 0]  // padded to 8
        let read = try #require(Self.libdbusReading(bytes))
        #expect(read.path == "/a" && read.member == "M" && read.serial == 7)
        #expect(try Self.ownReading(bytes) == read)
    }

    /// A header libdbus refuses is no message here either, beside an
    /// unknown field of a type no field has or not: a signature or a Unix
    /// fd count twice, a Unix fd count that is not a `u`, field code 0.
    @Test func aHeaderLibdbusRefusesIsNoMessage() throws {
        // A little-endian call with no body: path "/a", member "M".
        let base: [UInt8] = [1, 1, 0x6F, 0, 2, 0, 0, 0, 0x2F, 0x61, 0, 0, 0, 0, 0, 0]
            + [3, 1, 0x73, 0, 1, 0, 0, 0, 0x4D, 0, 0, 0, 0, 0, 0, 0]
        let signature: [UInt8] = [8, 1, 0x67, 0, 0, 0, 0, 0]  // "g", empty, padded
        let fds: [UInt8] = [9, 1, 0x75, 0, 0, 0, 0, 0]  // u 0
        let fdsAsText: [UInt8] = [9, 1, 0x73, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]  // s "", padded
        let codeZero: [UInt8] = [0, 1, 0x75, 0, 0, 0, 0, 0]
        // An unknown field of type `ay`, which the header reader reads through `WireDecoder`.
        let unknownArray: [UInt8] = [42, 2, 0x61, 0x79, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        func message(_ fields: [UInt8]) -> [UInt8] {
            let length = UInt32(fields.count)
            return [0x6C, 1, 0, 1, 0, 0, 0, 0, 7, 0, 0, 0,
                    UInt8(length & 0xFF), UInt8(length >> 8 & 0xFF), 0, 0] + fields
        }
        for extra in [[UInt8](), unknownArray] {
            let good = message(base + extra + signature + fds)
            #expect(Self.libdbusAccepts(good), "the control is D-Bus")
            #expect(try Self.ownReading(good) == Self.libdbusReading(good))
            for (what, fields) in [("a signature twice", base + extra + signature + signature),
                                   ("a Unix fd count twice", base + extra + fds + fds),
                                   ("a Unix fd count as text", base + extra + fdsAsText),
                                   ("field code 0", base + extra + codeZero)] {
                let bytes = message(fields)
                #expect(!Self.libdbusAccepts(bytes), "libdbus reads \(what)")
                #expect(bytes.withUnsafeBytes { WireHeader(reading: $0) } == nil,
                        "read here: \(what)\(extra.isEmpty ? "" : ", beside an unknown field")")
                #expect(throws: (any Error).self, "\(what)") { try Message(received: WireBytes(copying: bytes)) }
            }
        }
    }

    /// A message from the bus that is changed (numbered again, flagged) is
    /// sent changed, from a copy of its bytes: the bytes as they came (perhaps
    /// lent) are left alone. One of type 0 is no message.
    @Test func aReceivedMessageChangedIsSentChanged() throws {
        let call = try Message.methodCall(destination: ":1.9", path: "/x", interface: "a.B", member: "M",
                                          arguments: [.uint32(3)])
        call.serial = 5
        var bytes = try Self.bytes(of: call)
        let received = try Message(received: WireBytes(copying: bytes))
        #expect(received.serial == 5 && !received.noReplyExpected)
        received.serial = 77
        received.setNoReplyExpected()
        #expect(received.serial == 77 && received.noReplyExpected)
        let sent = try #require(Self.libdbusReading(try Self.bytes(of: received)))
        #expect(sent.serial == 77 && sent.noReply && sent.member == "M" && sent.path == "/x")
        bytes[1] = 0
        #expect(throws: DBusError.self) { try Message(received: WireBytes(copying: bytes)) }
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
        // libdbus, reading the same bytes, agrees; so does this package.
        let read = try #require(Self.libdbusReading(bytes))
        #expect(read.serial == 0x0102_0304 && read.noReply)
        #expect(try Self.ownReading(bytes) == read)
        // Set again: the bytes sent change.
        call.serial = 9
        let again = try Self.bytes(of: call)
        #expect(Self.libdbusReading(again)?.serial == 9)
    }

    @Test func aCopyHasBytesOfItsOwn() throws {
        let call = try Message.methodCall(destination: nil, path: "/x", interface: nil, member: "M",
                                          arguments: [.string("a"), .uint32(2), .bool(true)])
        let copy = call.copy()
        copy.serial = 5
        call.serial = 6
        #expect(copy.serial == 5 && call.serial == 6)
        #expect(copy.arguments == call.arguments)
    }

    /// D-Bus allows 64 containers deep; deeper is refused with an error, and
    /// a message deeper than 32 is still checked by libdbus before it goes.
    @Test func nestingIsBounded() throws {
        func nested(_ depth: Int) -> DBusValue {
            (0..<depth).reduce(DBusValue.uint32(1)) { inner, _ in .variant(inner) }
        }
        #expect(throws: DBusError.self) {
            try Message.methodCall(destination: nil, path: "/x", interface: nil, member: "M", arguments: [nested(65)])
        }
        let deep = try Message.methodCall(destination: nil, path: "/x", interface: nil, member: "M",
                                          arguments: [nested(40)])
        // Written here, checked by libdbus before it may go.
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
