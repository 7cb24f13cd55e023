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
