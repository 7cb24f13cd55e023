internal import CDBus

/// Reading a message's arguments from its wire format with `WireDecoder`:
/// in place for one that arrived; for one made here, from what
/// `dbus_message_marshal` writes (its arguments then through libdbus's
/// iterators, should the decoder give up).
extension Message {
    /// The arguments, decoded from the wire format (`WireDecoder`), or
    /// through libdbus's iterators should that give up.
    public var arguments: [DBusValue] { wireArguments() ?? MessageCoder.read(raw) }

    private func wireArguments() -> [DBusValue]? {
        withWireFormat { WireDecoder.arguments(of: $0, signature: $1) }
    }

    /// The argument at `index` alone (the others are skipped, not decoded).
    func argument(_ index: Int) -> DBusValue? {
        withWireFormat { WireDecoder.argument(index, of: $0, signature: $1) }
    }

    /// The `a(ayay)` argument at `index` as one length-prefixed buffer (see
    /// `WireDecoder.lengthPrefixedPairs`); nil when it is not one.
    func lengthPrefixedPairs(at index: Int) -> [UInt8]? {
        withWireFormat { WireDecoder.lengthPrefixedPairs(index, of: $0, signature: $1) }
    }

    /// The `ay` arguments at `indices` as one length-prefixed buffer (see
    /// `WireDecoder.lengthPrefixedByteArrays`); nil when they are not.
    func lengthPrefixedByteArrays(at indices: Range<Int>) -> [UInt8]? {
        withWireFormat { WireDecoder.lengthPrefixedByteArrays(indices, of: $0, signature: $1) }
    }

    /// The message's size in the wire format: as it arrived, or, for one
    /// made here, as `dbus_message_marshal` writes it (made once and kept).
    var wireSize: Int { marshalled()?.count ?? 0 }

    /// The payload bytes of the argument at `index`, counted in the bytes
    /// the message came in, before anything is copied: an `ay`'s length;
    /// for an `a(ayay)`, 0 when its whole wire size is within `limit` (its
    /// payloads then fit), else the sum of its arrays. Nil for another type
    /// or no such argument.
    func payloadBytes(at index: Int, limit: Int) -> Int? {
        withWireFormat { WireDecoder.payloadBytes(index, of: $0, signature: $1, limit: limit) }
    }

    /// Runs `body` on the message in the wire format (`wireFormat`), and
    /// its signature's bytes.
    private func withWireFormat<T>(_ body: (UnsafeRawBufferPointer, [UInt8]) -> T?) -> T? {
        guard let wire = marshalled() else { return nil }
        if signatureBytes == nil { signatureBytes = Array(signature.utf8) }
        return body(wire, signatureBytes ?? [])
    }

    /// The message in the wire format: the bytes it arrived in, or, for one
    /// made here, what `dbus_message_marshal` writes, made on first use and
    /// kept (freed with the message).
    private func marshalled() -> UnsafeRawBufferPointer? {
        if wireFormat == nil { wireFormat = WireBytes(marshalling: raw) }
        return wireFormat?.bytes
    }
}
