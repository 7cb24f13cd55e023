@testable import DBus
import Testing

/// A handler's reader takes the arguments in order, each once, as the
/// decoder reads them one by one; a read of the wrong kind stops it.
@Suite struct ArgumentReaderTests {
    /// `body` given a reader of a message carrying `arguments`.
    private func reading<T>(_ arguments: [DBusValue], _ body: (inout ArgumentReader) -> T) -> T {
        let bytes = WireEncoder.bytes(fields: .init(member: "Push"), arguments: arguments, bodyBytes: 64)
        let signature = Array(arguments.map(\.signature).joined().utf8)
        return bytes.withUnsafeBytes { raw in
            var reader = ArgumentReader(bytes: raw, signature: signature)
            return body(&reader)
        }
    }

    @Test func readsAPushInOrder() {
        let hints: DBusValue = .vardict(["merge_key": .string("typing")])
        let read = reading([.string("Typing"), .bytes([1, 2, 3]), .bytes([]), hints]) { reader in
            (reader.string(), reader.packedByteArrays(count: 2), reader.stringDictionary(), reader.value())
        }
        #expect(read.0 == "Typing")
        // Each array's length, a little-endian u32, then its bytes.
        #expect(read.1 == [3, 0, 0, 0, 1, 2, 3, 0, 0, 0, 0])
        #expect(read.2 == ["merge_key": .string("typing")])
        #expect(read.3 == nil, "nothing is left after the last argument")
    }

    @Test func readsAPushGroupsPairs() {
        let pairs = DBusValue.array(element: "(ayay)", [.structure([.bytes([9]), .bytes([8, 7])])])
        let read = reading([.string("Paste"), pairs, .vardict([:])]) { reader in
            (reader.string(), reader.packedByteArrays(count: 1), reader.stringDictionary())
        }
        #expect(read.0 == "Paste")
        #expect(read.1 == [1, 0, 0, 0, 9, 2, 0, 0, 0, 8, 7])
        #expect(read.2 == [:], "an empty a{sv} reads as no options")
    }

    @Test func skipsWhatItDoesNotNeed() {
        let read = reading([.string("Typing"), .bytes(Array(repeating: 5, count: 1000)), .bytes([1]), .uint32(7)]) {
            reader in (reader.skip(3), reader.value())
        }
        #expect(read.0 && read.1 == .uint32(7))
    }

    @Test func aReadOfTheWrongKindStopsTheReader() {
        let read = reading([.uint32(1), .string("after")]) { reader in
            (reader.string(), reader.value())
        }
        #expect(read.0 == nil, "a u32 is not read as a string")
        #expect(read.1 == nil, "and nothing after a failed read is read")
        #expect(reading([.string("x"), .uint32(2)]) { reader in reader.skip(1) ? reader.stringDictionary() : [:] } == nil)
        #expect(reading([.string("x")]) { reader in reader.packedByteArrays(count: 1) } == nil)
    }
}
