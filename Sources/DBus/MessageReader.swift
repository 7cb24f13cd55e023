/// Cuts the byte stream from the bus into whole messages, each in memory
/// of its own (`WireBytes`).
///
/// Small messages are read many at a time into one buffer used again and
/// again, then copied out. A message from `ownBufferBytes` on is read
/// straight into memory of its exact size once its first 16 bytes tell
/// that size, so a 60 MiB call is never copied between read and use; from
/// `lentBufferBytes` on, that memory is lent (`LargeBufferLender`) and
/// comes back for the next. Where a message ends is read from its first 16
/// bytes (`WireHeader.messageSize`).
final class MessageReader {
    /// The size of the shared read buffer.
    static let bufferBytes = 256 << 10
    /// From this size, a message is read into memory of its own.
    static let ownBufferBytes = 64 << 10
    /// From this size on, a message is read into memory lent by `lender`.
    static let lentBufferBytes = 1 << 20

    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferBytes, alignment: 8)
    /// The unread bytes in `buffer`.
    private var start = 0, end = 0
    /// A message being read into memory of its own, and how much of it is in.
    private var own: (bytes: UnsafeMutableRawBufferPointer, filled: Int)?
    /// A message from `lentBufferBytes` on: it is read into `lender`'s buffer.
    private var large: (buffer: UnsafeMutableRawBufferPointer, count: Int)?
    private let lender = LargeBufferLender()

    deinit {
        buffer.deallocate()
        if let large { lender.giveBack(large.buffer) } else { own?.bytes.deallocate() }
    }

    /// Whether the bytes read so far end in the middle of a message.
    var holdsPartOfAMessage: Bool { own != nil || end > start }

    /// Reads once from `socket` into the message being read or the buffer.
    /// `.moved(0)` never happens; a full buffer reads nothing until
    /// `next` has taken messages out (it then answers `.wouldBlock`).
    func read(from socket: BusSocket) -> BusSocket.Transfer {
        if let (bytes, filled) = own {
            let result = socket.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[filled...]))
            if case .moved(let count) = result { own = (bytes, filled + count) }
            return result
        }
        if start > 0, end == start { start = 0; end = 0 }
        if end == buffer.count, start > 0 { compact() }
        guard end < buffer.count else { return .wouldBlock }
        let result = socket.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...]))
        if case .moved(let count) = result { end += count }
        return result
    }

    /// The next whole message read, taken out; nil when the rest has not
    /// arrived. Throws when the bytes are not D-Bus (the connection must
    /// then close: nothing after them can be framed).
    func next() throws(DBusError) -> WireBytes? {
        if let (bytes, filled) = own {
            guard filled == bytes.count else { return nil }
            own = nil
            guard let (buffer, count) = large else { return WireBytes(taking: bytes) }
            large = nil
            return WireBytes(borrowing: buffer, count: count, from: lender)
        }
        let available = end - start
        guard available >= 16 else { return nil }
        guard let size = WireHeader.messageSize(UnsafeRawBufferPointer(rebasing: buffer[start..<(start + 16)])) else {
            throw DBusError(name: DBusError.Names.disconnected,
                            message: "The bus sent bytes that are not a D-Bus message.")
        }
        if size >= Self.ownBufferBytes {
            let bytes: UnsafeMutableRawBufferPointer
            if size >= Self.lentBufferBytes {
                let buffer = lender.lend(size)
                large = (buffer, size)
                bytes = UnsafeMutableRawBufferPointer(rebasing: buffer[..<size])
            } else {
                bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
            }
            let copied = min(size, available)
            bytes.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[start..<(start + copied)]))
            start += copied
            own = (bytes, copied)
            return try next()
        }
        guard size <= available else {
            if start + size > buffer.count { compact() }
            return nil
        }
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
        bytes.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[start..<(start + size)]))
        start += size
        return WireBytes(taking: bytes)
    }

    /// Moves the unread bytes to the front of the buffer.
    private func compact() {
        let count = end - start
        if count > 0 { buffer.baseAddress!.copyMemory(from: buffer.baseAddress!.advanced(by: start), byteCount: count) }
        start = 0
        end = count
    }
}
