/// One message's bytes in the wire format, owned: freed with this value.
///
/// Read from the bus (`MessageReader`'s allocation, or the start of its
/// large buffer, given back to it when this goes), or written here
/// (`WireEncoder`'s allocation, taken over).
final class WireBytes {
    /// The bytes.
    let bytes: UnsafeRawBufferPointer
    /// Where the memory goes back to, with its whole size; nil to free it.
    private let lender: (LargeBufferLender, UnsafeMutableRawBufferPointer)?

    /// Takes over `bytes`, allocated by Swift (`UnsafeMutableRawBufferPointer.allocate`).
    init(taking bytes: UnsafeMutableRawBufferPointer) {
        self.bytes = UnsafeRawBufferPointer(bytes)
        lender = nil
    }

    /// A copy of `source`, owned.
    convenience init<Source: Collection<UInt8>>(copying source: Source) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, source.count), alignment: 8)
        buffer.copyBytes(from: source)
        self.init(taking: UnsafeMutableRawBufferPointer(rebasing: buffer[..<source.count]))
    }

    /// The 4-byte word at `offset`, in the message's byte order.
    func word(at offset: Int) -> UInt32 {
        Self.word(at: offset, of: bytes)
    }

    /// The 4-byte word at `offset` of a message's `bytes`, in the message's
    /// byte order (its first byte says which).
    static func word(at offset: Int, of bytes: UnsafeRawBufferPointer) -> UInt32 {
        let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        return bytes[0] == UInt8(ascii: "B") ? UInt32(bigEndian: word) : UInt32(littleEndian: word)
    }

    /// Overwrites the 4-byte word at `offset` (in the message's byte
    /// order) of bytes this owns and wrote (`WireEncoder`'s, or a copy): a message's
    /// serial as it is numbered.
    func storeWord(_ value: UInt32, at offset: Int) {
        precondition(lender == nil && offset + 4 <= bytes.count, "only bytes written here are changed")
        let word = bytes[0] == UInt8(ascii: "B") ? value.bigEndian : value.littleEndian
        UnsafeMutableRawPointer(mutating: bytes.baseAddress!).storeBytes(of: word, toByteOffset: offset, as: UInt32.self)
    }

    /// Sets `bits` in the byte at `offset` of bytes this owns and wrote: a
    /// message's flags.
    func setBits(_ bits: UInt8, at offset: Int) {
        precondition(lender == nil && offset < bytes.count, "only bytes written here are changed")
        let byte = UnsafeMutableRawPointer(mutating: bytes.baseAddress!).advanced(by: offset).assumingMemoryBound(to: UInt8.self)
        byte.pointee |= bits
    }

    /// The first `count` bytes of `buffer`, lent by `lender`, to which
    /// `buffer` goes back.
    init(borrowing buffer: UnsafeMutableRawBufferPointer, count: Int, from lender: LargeBufferLender) {
        bytes = UnsafeRawBufferPointer(rebasing: buffer[..<count])
        self.lender = (lender, buffer)
    }

    deinit {
        let base = UnsafeMutableRawPointer(mutating: bytes.baseAddress)
        if let (lender, buffer) = lender {
            lender.giveBack(buffer)
        } else {
            base?.deallocate()
        }
    }
}
