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
    /// `WM_CLIENT_MACHINE`: the host a window's client runs on.
    public static let wmClientMachine = XAtom(36)
    /// `WM_TRANSIENT_FOR`: the window a dialog belongs to.
    public static let wmTransientFor = XAtom(68)
}
