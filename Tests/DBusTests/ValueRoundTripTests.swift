import DBus
import Testing

/// Every D-Bus type the contract uses goes out and comes back unchanged.
@Suite struct ValueRoundTripTests {
    static let megabyte = [UInt8]((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })

    static let cases: [(String, DBusValue)] = [
        ("byte 0", .byte(0)), ("byte 255", .byte(255)),
        ("bool true", .bool(true)), ("bool false", .bool(false)),
        ("uint32 max", .uint32(.max)), ("uint32 0", .uint32(0)),
        ("uint64 max", .uint64(.max)), ("int64 min", .int64(.min)), ("int64 max", .int64(.max)),
        ("empty string", .string("")), ("non-ASCII string", .string("Grüße, 世界 — “undo” 🎉")),
        ("root path", .objectPath("/")), ("stack path", .objectPath("/org/undod/Undo1/stack/7")),
        ("empty bytes", .bytes([])), ("some bytes", .bytes([0, 1, 255])), ("1 MiB bytes", .bytes(megabyte)),
        ("empty aay", .byteArrays([])), ("aay with empty member", .byteArrays([[], [1, 2], []])),
        ("empty a(ayay)", .array(element: "(ayay)", [])),
        ("a(ayay)", .array(element: "(ayay)", [.structure([.bytes([1]), .bytes([])])])),
        ("empty a{sv}", .vardict([:])),
        ("a{sv}", .vardict(["document": .string("notes.txt"), "limit": .uint32(5), "persist": .bool(false),
                            "max_bytes": .uint64(1 << 40)])),
        ("empty a(tsxt)", .array(element: "(tsxt)", [])),
        ("a(tsxt)", .array(element: "(tsxt)", [.structure([.uint64(1), .string("Typing"), .int64(-5), .uint64(10)])])),
        ("struct", .structure([.uint64(.max), .string("Paste"), .int64(.min), .uint64(0)])),
        ("variant of a{sv}", .variant(.vardict(["nested": .bytes([9])]))),
        ("a{oa{sa{sv}}}", .dict(key: "o", value: "a{sa{sv}}", [
            .init(.objectPath("/a"), .dict(key: "s", value: "a{sv}", [.init(.string("i.f"), .vardict([:]))])),
        ])),
        ("signature", .signature("a(tsxt)")), ("double", .double(-0.5)),
        // Structs and dict entries that start with a 1-byte field: only their
        // own 8-byte alignment puts them in place.
        ("struct of a byte", .structure([.byte(1), .string("x")])),
        ("a(yu) of two", .array(element: "(yu)", [.structure([.byte(1), .uint32(2)]),
                                                  .structure([.byte(3), .uint32(4)])])),
        ("a{yv} of two", .dict(key: "y", value: "v", [.init(.byte(1), .variant(.byte(2))),
                                                      .init(.byte(3), .variant(.structure([.byte(4), .int16(-5)])))])),
        ("int16 and uint16", .structure([.int16(-2), .uint16(65535), .byte(1), .uint16(7)])),
    ]

    /// Cases go by name, so a failure report does not print a megabyte.
    @Test(arguments: cases.map(\.0))
    func roundTrips(_ name: String) throws {
        let value = try #require(Self.cases.first { $0.0 == name }?.1)
        let f = try Fixture()
        f.objects.export(path: "/echo", interfaces: [
            Interface("test.Echo", methods: [
                .init("Echo", inputs: [.init("value", value.signature)], outputs: [.init("value", value.signature)]) {
                    $0.reply($0.arguments)
                },
            ]),
        ])
        let back = try f.call("/echo", "test.Echo", "Echo", [value])
        #expect(back == [value], "\(name) changed on the way")
    }

    /// Among other arguments: between two other values, so that every value
    /// also starts at an offset its alignment must correct (calls and
    /// replies are written in the wire format, `WireEncoder`).
    @Test(arguments: cases.map(\.0))
    func roundTripsWrittenInTheWireFormat(_ name: String) throws {
        let value = try #require(Self.cases.first { $0.0 == name }?.1)
        let f = try Fixture()
        let arguments: [DBusValue] = [.byte(7), value, .signature("y"), value]
        let signature = arguments.map(\.signature).joined()
        f.objects.export(path: "/echo", interfaces: [
            Interface("test.Echo", methods: [
                .init("Echo", inputs: arguments.map { .init("value", $0.signature) },
                      outputs: arguments.map { .init("value", $0.signature) }) { $0.reply($0.arguments) },
            ]),
        ])
        let call = try Message.methodCall(destination: f.server.uniqueName, path: "/echo", interface: "test.Echo",
                                          member: "Echo", arguments: arguments)
        #expect(call.signature == signature)
        #expect(call.arguments == arguments, "\(name) changed on its way into the call")
        let reply = try f.client.callAndWait(call, timeoutMilliseconds: 5_000)
        #expect(reply.signature == signature)
        #expect(reply.arguments == arguments, "\(name) changed on the way")
    }

    @Test func invalidValuesAreRefusedBeforeSending() {
        #expect(throws: DBusError.self) {
            try Message.methodCall(destination: nil, path: "/x", interface: nil, member: "M",
                                   arguments: [.objectPath("not a path")])
        }
        #expect(throws: DBusError.self) {
            try Message.methodCall(destination: nil, path: "/x", interface: nil, member: "M",
                                   arguments: [.array(element: "s", [.uint32(1)])])
        }
        #expect(throws: DBusError.self) {
            try Message.methodCall(destination: nil, path: "/x", interface: nil, member: "M",
                                   arguments: [.string("nul\u{0}inside")])
        }
        #expect(throws: DBusError.self) {
            try Message.methodCall(destination: nil, path: "bad", interface: nil, member: "M")
        }
    }
}

/// Messages the bus would refuse are refused here first, with an error.
@Suite struct MessageLimitTests {
    @Test func arraysOverTheBusLimitAreRefused() {
        let tooBig = DBusValue.bytes([UInt8](repeating: 0, count: (64 << 20) + 1))
        #expect(throws: DBusError.self) {
            try Message.methodCall(destination: nil, path: "/x", interface: nil, member: "M", arguments: [tooBig])
        }
        // Many small arrays inside one: their framing counts too.
        let framed = DBusValue.byteArrays(Array(repeating: [UInt8](repeating: 1, count: 1 << 20), count: 64))
        #expect(throws: DBusError.self) {
            try Message.methodCall(destination: nil, path: "/x", interface: nil, member: "M", arguments: [framed])
        }
        let fits = DBusValue.bytes([UInt8](repeating: 0, count: 60 << 20))
        #expect(throws: Never.self) {
            try Message.methodCall(destination: nil, path: "/x", interface: nil, member: "M", arguments: [fits])
        }
    }
}
