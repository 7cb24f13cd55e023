/// An X11 window id.
public struct XWindow: Hashable, Sendable, CustomStringConvertible {
    /// The id as the X server numbers it.
    public let id: UInt32

    /// A window by its id.
    public init(_ id: UInt32) { self.id = id }

    /// No window (id 0).
    public static let none = XWindow(0)

    /// The id in hexadecimal, as xprop and xdotool print it.
    public var description: String { "0x" + String(id, radix: 16) }
}

/// An X11 atom: the server's number for a name such as `_NET_ACTIVE_WINDOW`.
public struct XAtom: Hashable, Sendable {
    /// The atom as the X server numbers it.
    public let id: UInt32

    /// An atom by its number.
    public init(_ id: UInt32) { self.id = id }

    /// `WINDOW`, the type of window-valued properties.
    public static let window = XAtom(33)
    /// `CARDINAL`, the type of number-valued properties.
    public static let cardinal = XAtom(6)
    /// `STRING`, the type of Latin-1 text properties.
    public static let string = XAtom(31)
    /// `WM_CLIENT_MACHINE`: the host a window's client runs on.
    public static let wmClientMachine = XAtom(36)
    /// `WM_TRANSIENT_FOR`: the window a dialog belongs to.
    public static let wmTransientFor = XAtom(68)
}

/// Which events a client asks the server for on a window.
public struct X11EventMask: OptionSet, Sendable {
    /// The mask as the protocol spells it.
    public let rawValue: UInt32
    /// Makes a mask from protocol bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// `StructureNotifyMask`: the window was destroyed, mapped, moved, ….
    public static let structureNotify = X11EventMask(rawValue: 1 << 17)
    /// `PropertyChangeMask`: a property of the window changed.
    public static let propertyChange = X11EventMask(rawValue: 1 << 22)
}

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
