/// Reading a message's arguments: from its bytes, by `WireDecoder`, the one
/// reading there is (in place, for one that arrived).
extension Message {
    /// The arguments; empty when `WireDecoder` cannot read them (which the
    /// bus, validating what it passes on, never lets happen: `ObjectServer`
    /// still answers such a call `InvalidArgs` before a handler sees it,
    /// `decodedArguments`).
    public var arguments: [DBusValue] { decodedArguments() ?? [] }

    /// The arguments, or nil when they cannot be read as the signature says.
    func decodedArguments() -> [DBusValue]? {
        withWireFormat { WireDecoder.arguments(of: $0, signature: $1) }
    }

    /// The argument at `index` alone (the others are skipped, not decoded).
    func argument(_ index: Int) -> DBusValue? {
        withWireFormat { WireDecoder.argument(index, of: $0, signature: $1) }
    }

    /// The byte arrays of the arguments at `indices`, packed into one buffer
    /// (see `ByteArrayReader.packed`); nil when they are not all
    /// byte arrays or arrays of them.
    func packedByteArrays(at indices: Range<Int>) -> [UInt8]? {
        withWireFormat { ByteArrayReader.packed(indices, of: $0, signature: $1) }
    }

    /// The message's size in the wire format.
    var wireSize: Int { wireFormat.bytes.count }

    /// The bytes in the byte arrays of the argument at `index`, counted in
    /// the bytes the message came in, before anything is copied (see
    /// `ByteArrayReader.bytes`).
    func byteArrayBytes(at index: Int, limit: Int) -> Int? {
        withWireFormat { ByteArrayReader.bytes(index, of: $0, signature: $1, limit: limit) }
    }

    /// Lends `body` a reader of the arguments in order (`ArgumentReader`).
    func readingArguments<T>(_ body: (inout ArgumentReader) -> T) -> T {
        withWireFormat { bytes, signature in
            var reader = ArgumentReader(bytes: bytes, signature: signature)
            return body(&reader)
        }
    }

    /// Runs `body` on the message in the wire format and its signature's bytes.
    private func withWireFormat<T>(_ body: (UnsafeRawBufferPointer, [UInt8]) -> T) -> T {
        if signatureBytes == nil { signatureBytes = Array(signature.utf8) }
        return withExtendedLifetime(wireFormat) { body(wireFormat.bytes, signatureBytes ?? []) }
    }
}
