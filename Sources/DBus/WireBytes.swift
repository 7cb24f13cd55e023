internal import CDBus

/// One message's bytes in the wire format, owned: freed with this value.
///
/// Either read from the bus (`MessageReader`'s allocation, or the start
/// of its large buffer, given back to it when this goes) or written by
/// libdbus (`dbus_message_marshal`'s, freed with `dbus_free`).
final class WireBytes {
    /// The bytes.
    let bytes: UnsafeRawBufferPointer
    private let ownedByLibDBus: Bool
    /// Where the memory goes back to, with its whole size; nil to free it.
    private let lender: (LargeBufferLender, UnsafeMutableRawBufferPointer)?

    /// Takes over `bytes`, allocated by Swift (`UnsafeMutableRawBufferPointer.allocate`).
    init(taking bytes: UnsafeMutableRawBufferPointer) {
        self.bytes = UnsafeRawBufferPointer(bytes)
        ownedByLibDBus = false
        lender = nil
    }

    /// The first `count` bytes of `buffer`, lent by `lender`, to which
    /// `buffer` goes back.
    init(borrowing buffer: UnsafeMutableRawBufferPointer, count: Int, from lender: LargeBufferLender) {
        bytes = UnsafeRawBufferPointer(rebasing: buffer[..<count])
        ownedByLibDBus = false
        self.lender = (lender, buffer)
    }

    /// The wire format of the libdbus message `raw` (`dbus_message_marshal`);
    /// nil when memory runs out.
    init?(marshalling raw: OpaquePointer) {
        var data: UnsafeMutablePointer<CChar>? = nil
        var length: Int32 = 0
        guard dbus_message_marshal(raw, &data, &length) != 0, let data else { return nil }
        bytes = UnsafeRawBufferPointer(start: data, count: Int(length))
        ownedByLibDBus = true
        lender = nil
    }

    deinit {
        let base = UnsafeMutableRawPointer(mutating: bytes.baseAddress)
        if let (lender, buffer) = lender {
            lender.giveBack(buffer)
        } else if ownedByLibDBus {
            dbus_free(base)
        } else {
            base?.deallocate()
        }
    }
}
