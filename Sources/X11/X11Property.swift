/// The value of a window property, as the server returned it.
public struct X11Property: Sendable, Equatable {
    /// The property's type (`WINDOW`, `CARDINAL`, `STRING`, …).
    public var type: XAtom
    /// Bits per item: 8, 16 or 32.
    public var format: UInt8
    /// The raw value, in the server's order for our connection (native).
    public var bytes: [UInt8]

    /// The 32-bit items of a format-32 property.
    public var words: [UInt32] {
        guard format == 32 else { return [] }
        return stride(from: 0, to: bytes.count - 3, by: 4).map { offset in
            bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
        }
    }

    /// The first item as a window, when the property is a `WINDOW`.
    public var window: XWindow? {
        guard type == .window, let first = words.first else { return nil }
        return XWindow(first)
    }

    /// The first item as a number, when the property is a `CARDINAL`.
    public var cardinal: UInt32? {
        guard type == .cardinal else { return nil }
        return words.first
    }

    /// The text of a format-8 property, up to its first NUL.
    public var text: String? {
        guard format == 8 else { return nil }
        let end = bytes.firstIndex(of: 0) ?? bytes.endIndex
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}
