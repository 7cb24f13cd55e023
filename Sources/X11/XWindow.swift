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
