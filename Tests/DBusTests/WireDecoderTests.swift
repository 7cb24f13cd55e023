@testable import DBus
import Testing

/// The wire-format reader gives back exactly what was written, in either
/// byte order, and gives up (nil, so the iterators read instead) on bytes
/// that break off.
@Suite struct WireDecoderTests {
    @Test(arguments: ValueRoundTripTests.cases.map(\.0))
    func readsWhatTheEncoderWrote(_ name: String) throws {
        let value = try #require(ValueRoundTripTests.cases.first { $0.0 == name }?.1)
        // Between two other values, so that alignment from an odd offset is read too.
        let arguments: [DBusValue] = [.byte(7), value, .string("after")]
        let bytes = WireEncoder.bytes(fields: .init(member: "Echo"),
                                        arguments: arguments, bodyBytes: 64)
        let signature = Array(arguments.map(\.signature).joined().utf8)
        let read = bytes.withUnsafeBytes { WireDecoder.arguments(of: $0, signature: signature) }
        #expect(read == arguments, "\(name) read back differently")
    }

    @Test func readsBigEndianMessages() {
        // "B", method call, no flags, version 1; body 16 bytes; serial 1; no header fields.
        var bytes: [UInt8] = [0x42, 1, 0, 1, 0, 0, 0, 16, 0, 0, 0, 1, 0, 0, 0, 0]
        bytes += [0, 0, 0, 3, 0x61, 0x62, 0x63, 0]  // "abc"
        bytes += [0x12, 0x34, 0x56, 0x78, 0, 0, 0, 1]  // u 0x12345678, b true
        let read = bytes.withUnsafeBytes { WireDecoder.arguments(of: $0, signature: Array("sub".utf8)) }
        #expect(read == [.string("abc"), .uint32(0x1234_5678), .bool(true)])
    }

    @Test func manyEmptyActionsReadAsStructs() {
        let empties = DBusValue.array(element: "(ayay)", Array(repeating: .structure([.bytes([]), .bytes([])]),
                                                                count: 100_000))
        let bytes = WireEncoder.bytes(arguments: [.string("Nothing"), empties],
                                        bodyBytes: 1 << 20)
        let read = bytes.withUnsafeBytes { WireDecoder.arguments(of: $0, signature: Array("sa(ayay)".utf8)) }
        #expect(read == [.string("Nothing"), empties])
    }

    /// One argument alone, every other skipped (arrays by their length,
    /// structs and variants field by field), reads as the whole does.
    @Test func readsOneArgumentSkippingTheOthers() {
        let arguments: [DBusValue] = [
            .byte(1), .array(element: "(ayay)", [.structure([.bytes([1, 2]), .bytes([])])]),
            .structure([.uint16(7), .string("x"), .variant(.bytes([9]))]), .variant(.int64(-3)),
            .vardict(["a": .string("b")]), .string("last"),
        ]
        let signature = Array(arguments.map(\.signature).joined().utf8)
        let bytes = WireEncoder.bytes(arguments: arguments, bodyBytes: 64)
        for (index, argument) in arguments.enumerated() {
            let read = bytes.withUnsafeBytes { WireDecoder.argument(index, of: $0, signature: signature) }
            #expect(read == argument, "argument \(index)")
        }
        #expect(bytes.withUnsafeBytes { WireDecoder.argument(arguments.count, of: $0, signature: signature) } == nil)
    }

    /// `a(ayay)`'s byte arrays packed in one buffer (each its length, then
    /// its bytes), no value per element; any other type is nil.
    @Test func readsActionsAsPairsOfByteArrays() throws {
        let actions = DBusValue.array(element: "(ayay)", [
            .structure([.bytes([1, 2, 3]), .bytes([])]), .structure([.bytes([]), .bytes([4])]),
            .structure([.bytes([]), .bytes([])]),
        ])
        let arguments: [DBusValue] = [.string("Typing"), actions, .vardict([:])]
        let signature = Array("sa(ayay)a{sv}".utf8)
        let bytes = WireEncoder.bytes(arguments: arguments, bodyBytes: 64)
        let buffer = try #require(bytes.withUnsafeBytes {
            ByteArrayReader.packed(1..<2, of: $0, signature: signature)
        })
        #expect(buffer == [3, 0, 0, 0, 1, 2, 3, 0, 0, 0, 0] + [0, 0, 0, 0, 1, 0, 0, 0, 4] + [0, 0, 0, 0, 0, 0, 0, 0])
        #expect(bytes.withUnsafeBytes { ByteArrayReader.packed(0..<1, of: $0, signature: signature) } == nil)
        #expect(bytes.withUnsafeBytes { ByteArrayReader.packed(2..<3, of: $0, signature: signature) } == nil)
        // An array cut short (the body is 64 bytes, the array ends at 56) is refused, not read.
        for cut in [bytes.count - 64 + 20, bytes.count - 20] {
            #expect(bytes.prefix(cut).withUnsafeBytes {
                ByteArrayReader.packed(1..<2, of: $0, signature: signature)
            } == nil)
        }
    }

    /// Consecutive `ay` arguments (Push's payloads) packed in one buffer; a
    /// range that takes in anything else is nil.
    @Test func readsByteArraysAsOneBuffer() throws {
        let arguments: [DBusValue] = [.string("Typing"), .bytes([1, 2, 3]), .bytes([]), .vardict([:])]
        let signature = Array("sayaya{sv}".utf8)
        let bytes = WireEncoder.bytes(arguments: arguments, bodyBytes: 64)
        let read = { (range: Range<Int>) in
            bytes.withUnsafeBytes { ByteArrayReader.packed(range, of: $0, signature: signature) }
        }
        #expect(read(1..<3) == [3, 0, 0, 0, 1, 2, 3, 0, 0, 0, 0])
        #expect(read(2..<3) == [0, 0, 0, 0])
        #expect(read(0..<2) == nil)
        #expect(read(1..<4) == nil)
        #expect(read(1..<1) == nil)
    }

    /// Every shape of byte arrays packs the same way, in order, across
    /// arguments: `ay`, `aay` and arrays of structs of one or three `ay`s;
    /// a struct with anything else in it is no such shape.
    @Test func packsEveryShapeOfByteArrays() throws {
        let arguments: [DBusValue] = [
            .bytes([9]), .byteArrays([[1], [], [2, 3]]),
            .array(element: "(ay)", [.structure([.bytes([4])])]),
            .array(element: "(ayayay)", [.structure([.bytes([5]), .bytes([]), .bytes([6])])]),
            .array(element: "(ays)", [.structure([.bytes([7]), .string("x")])]),
        ]
        let signature = Array("ayaaya(ay)a(ayayay)a(ays)".utf8)
        let bytes = WireEncoder.bytes(arguments: arguments, bodyBytes: 128)
        let read = { (range: Range<Int>) in
            bytes.withUnsafeBytes { ByteArrayReader.packed(range, of: $0, signature: signature) }
        }
        func packed(_ arrays: [[UInt8]]) -> [UInt8] { arrays.flatMap { [UInt8($0.count), 0, 0, 0] + $0 } }
        #expect(read(0..<4) == packed([[9], [1], [], [2, 3], [4], [5], [], [6]]))
        #expect(read(1..<2) == packed([[1], [], [2, 3]]))
        #expect(read(4..<5) == nil)
        #expect(bytes.withUnsafeBytes { ByteArrayReader.bytes(1, of: $0, signature: signature, limit: 1) } == 3)
        #expect(bytes.withUnsafeBytes { ByteArrayReader.bytes(1, of: $0, signature: signature, limit: 100) } == 0,
                "an array within the limit on the wire is not walked")
    }

    /// A string skipped to reach a later argument is checked as one read:
    /// its NUL where its length says; a text without it reads as nothing.
    @Test func aSkippedStringIsCheckedAsARead() {
        let arguments: [DBusValue] = [.string("ab"), .signature("u"), .uint32(7)]
        let signature = Array("sgu".utf8)
        var bytes = WireEncoder.bytes(arguments: arguments, bodyBytes: 32)
        #expect(bytes.withUnsafeBytes { WireDecoder.argument(2, of: $0, signature: signature) } == .uint32(7))
        let body = bytes.count - 16  // "ab" NUL, pad, "u" NUL, pad, u32 (16 bytes from the body's start)
        for nul in [body + 6, body + 9] {
            var broken = bytes
            broken[nul] = UInt8(ascii: "x")
            #expect(broken.withUnsafeBytes { WireDecoder.argument(2, of: $0, signature: signature) } == nil,
                    "the NUL at \(nul - body) replaced")
        }
        bytes[body] = 200  // a length past the end
        #expect(bytes.withUnsafeBytes { WireDecoder.argument(2, of: $0, signature: signature) } == nil)
    }

    @Test func givesUpOnBytesThatBreakOff() {
        let bytes = WireEncoder.bytes(arguments: [.bytes([1, 2, 3, 4])],
                                        bodyBytes: 8)
        for cut in [8, 16, bytes.count - 1] {
            let read = bytes.prefix(cut).withUnsafeBytes { WireDecoder.arguments(of: $0, signature: Array("ay".utf8)) }
            #expect(read == nil, "cut at \(cut)")
        }
        let wrongSignature = bytes.withUnsafeBytes { WireDecoder.arguments(of: $0, signature: Array("a(".utf8)) }
        #expect(wrongSignature == nil)
    }
}
