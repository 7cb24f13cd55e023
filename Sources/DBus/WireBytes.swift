internal import CDBus

/// One message's bytes in the wire format, owned: freed with this value.
///
/// Either read from the bus (`MessageReader`'s allocation) or written by
/// libdbus (`dbus_message_marshal`'s, freed with `dbus_free`).
final class WireBytes {
    /// The bytes.
    let bytes: UnsafeRawBufferPointer
    private let ownedByLibDBus: Bool

    /// Takes over `bytes`, allocated by Swift (`UnsafeMutableRawBufferPointer.allocate`).
    init(taking bytes: UnsafeMutableRawBufferPointer) {
        self.bytes = UnsafeRawBufferPointer(bytes)
        ownedByLibDBus = false
    }

    /// The wire format of the libdbus message `raw` (`dbus_message_marshal`);
    /// nil when memory runs out.
    init?(marshalling raw: OpaquePointer) {
        var data: UnsafeMutablePointer<CChar>? = nil
        var length: Int32 = 0
        guard dbus_message_marshal(raw, &data, &length) != 0, let data else { return nil }
        bytes = UnsafeRawBufferPointer(start: data, count: Int(length))
        ownedByLibDBus = true
    }

    deinit {
        let base = UnsafeMutableRawPointer(mutating: bytes.baseAddress)
        if ownedByLibDBus { dbus_free(base) } else { base?.deallocate() }
    }
}
