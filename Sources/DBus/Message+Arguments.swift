internal import CDBus
#if canImport(Glibc)
internal import Glibc
#endif

/// Reading a message's arguments: from its wire format with `WireDecoder`
/// (in place, for one that arrived), through libdbus's iterators where
/// that gives up.
extension Message {
    /// The arguments, decoded from the wire format (`WireDecoder`), or
    /// through libdbus's iterators should that give up.
    public var arguments: [DBusValue] { wireArguments() ?? MessageCoder.read(raw) }

    private func wireArguments() -> [DBusValue]? {
        withWireFormat { WireDecoder.arguments(of: $0, signature: $1) }
    }

    /// The argument at `index` alone (the others are skipped, not decoded).
    func argument(_ index: Int) -> DBusValue? {
        if readsInPlace, wireFormat == nil { return MessageCoder.read(raw, argumentAt: index) }
        return withWireFormat { WireDecoder.argument(index, of: $0, signature: $1) }
    }

    /// The `a(ayay)` argument at `index` as one length-prefixed buffer (see
    /// `WireDecoder.lengthPrefixedPairs`); nil when it is not one.
    func lengthPrefixedPairs(at index: Int) -> [UInt8]? {
        withWireFormat { WireDecoder.lengthPrefixedPairs(index, of: $0, signature: $1) }
    }

    /// The `ay` arguments at `indices` as one length-prefixed buffer (see
    /// `WireDecoder.lengthPrefixedByteArrays`); nil when they are not.
    func lengthPrefixedByteArrays(at indices: Range<Int>) -> [UInt8]? {
        if readsInPlace, wireFormat == nil { return MessageCoder.lengthPrefixedByteArrays(raw, at: indices) }
        return withWireFormat { WireDecoder.lengthPrefixedByteArrays(indices, of: $0, signature: $1) }
    }

    /// From this size on (`weighedSize`), `argument` and
    /// `lengthPrefixedByteArrays` read the message in place with libdbus's
    /// iterators instead of from one marshalled copy: copying a huge
    /// message whole (into fresh memory, each page faulted in) costs far
    /// more than the iterators' microsecond a container. (`a(ayay)` stays
    /// on the copy: 100,000 small pairs would cost the iterators 200 ms.)
    static let readInPlaceBytes = 1 << 20

    /// Whether this message is read in place (see `readInPlaceBytes`).
    private var readsInPlace: Bool { weighedSize >= Self.readInPlaceBytes }

    func weigh() -> Int {
        if let wireFormat { return wireFormat.bytes.count }
        var iter = DBusMessageIter()
        var total = 256
        guard dbus_message_iter_init(raw, &iter) != 0 else { return total }
        repeat {
            switch dbus_message_iter_get_arg_type(&iter) {
            case LibDBus.TypeCode.invalid:
                return total
            case LibDBus.TypeCode.array:
                // libdbus weighs an array from inside it.
                var elements = DBusMessageIter()
                dbus_message_iter_recurse(&iter, &elements)
                total += 4 + Int(cdbus_iter_array_wire_length(&elements))
            case LibDBus.TypeCode.string, LibDBus.TypeCode.objectPath, LibDBus.TypeCode.signature:
                var pointer: UnsafePointer<CChar>? = nil
                withUnsafeMutablePointer(to: &pointer) { dbus_message_iter_get_basic(&iter, $0) }
                total += 5 + (pointer.map { strlen($0) } ?? 0)
            default:
                total += 8
            }
        } while dbus_message_iter_next(&iter) != 0
        return total
    }

    /// The payload bytes of the argument at `index`, counted where libdbus
    /// holds them, before anything is copied: an `ay`'s length; for an
    /// `a(ayay)`, 0 when its whole wire size is within `limit` (its payloads
    /// then fit), else the sum of its arrays. Nil for another type or no
    /// such argument.
    func payloadBytes(at index: Int, limit: Int) -> Int? {
        if detachedSignature != nil {
            return withWireFormat { WireDecoder.payloadBytes(index, of: $0, signature: $1, limit: limit) }
        }
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iter) != 0 else { return nil }
        for _ in 0..<index where dbus_message_iter_next(&iter) == 0 { return nil }
        guard dbus_message_iter_get_arg_type(&iter) == LibDBus.TypeCode.array else { return nil }
        switch dbus_message_iter_get_element_type(&iter) {
        case LibDBus.TypeCode.byte:
            return Int(dbus_message_iter_get_element_count(&iter))
        case LibDBus.TypeCode.structure:
            var pairs = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &pairs)
            guard Int(cdbus_iter_array_wire_length(&pairs)) > limit else { return 0 }
            var total = 0
            while dbus_message_iter_get_arg_type(&pairs) == LibDBus.TypeCode.structure {
                var fields = DBusMessageIter()
                dbus_message_iter_recurse(&pairs, &fields)
                repeat {
                    guard dbus_message_iter_get_arg_type(&fields) == LibDBus.TypeCode.array,
                          dbus_message_iter_get_element_type(&fields) == LibDBus.TypeCode.byte else { return nil }
                    total += Int(dbus_message_iter_get_element_count(&fields))
                } while dbus_message_iter_next(&fields) != 0
                dbus_message_iter_next(&pairs)
            }
            return total
        default:
            return nil
        }
    }

    /// Runs `body` on the message as `dbus_message_marshal` writes it
    /// (`wireFormat`), and its signature's bytes.
    private func withWireFormat<T>(_ body: (UnsafeRawBufferPointer, [UInt8]) -> T?) -> T? {
        guard let wire = marshalled() else { return nil }
        return body(wire, Array(signature.utf8))
    }


    /// The message as `dbus_message_marshal` writes it, made on first use and
    /// kept (freed with the message): a call's size, its name, options and
    /// actions are all read from the one copy.
    private func marshalled() -> UnsafeRawBufferPointer? {
        if wireFormat == nil { wireFormat = WireBytes(marshalling: raw) }
        return wireFormat?.bytes
    }
}
