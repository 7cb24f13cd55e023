/// The X11 modifier bits in force on this server: which of Mod1…Mod5 are
/// Alt, Super, Hyper and NumLock, found from the modifier mapping (the
/// usual Mod1, Mod4, Mod4 and Mod2 where the mapping does not say).
public struct ModifierBits: Sendable, Equatable {
    /// `ShiftMask`.
    public static let shift: UInt16 = 1 << 0
    /// `LockMask`: Caps Lock.
    public static let capsLock: UInt16 = 1 << 1
    /// `ControlMask`.
    public static let control: UInt16 = 1 << 2

    /// The bit of Alt.
    public var alt: UInt16 = 1 << 3
    /// The bit of Meta (on most layouts the same as Alt).
    public var meta: UInt16 = 1 << 3
    /// The bit of Super (the Windows or logo key).
    public var superKey: UInt16 = 1 << 6
    /// The bit of Hyper.
    public var hyper: UInt16 = 1 << 6
    /// The bit of Num Lock.
    public var numLock: UInt16 = 1 << 4

    /// The usual bits.
    public init() {}

    /// The bits that `modifiers` (eight lists of key codes: Shift, Lock,
    /// Control, Mod1…Mod5) give the keys of `mapping`.
    public init(modifiers: [[UInt8]], mapping: KeyboardMapping) {
        func bit(for symbols: Set<UInt32>) -> UInt16? {
            for index in 3..<min(8, modifiers.count)
            where modifiers[index].contains(where: { mapping.keycode($0, carriesAnyOf: symbols) }) {
                return 1 << UInt16(index)
            }
            return nil
        }
        alt = bit(for: [0xFFE9, 0xFFEA]) ?? alt
        meta = bit(for: [0xFFE7, 0xFFE8]) ?? alt
        superKey = bit(for: [0xFFEB, 0xFFEC]) ?? superKey
        hyper = bit(for: [0xFFED, 0xFFEE]) ?? superKey
        numLock = bit(for: [0xFF7F]) ?? numLock
    }

    /// The bit of `modifier` on this server.
    public func bit(of modifier: KeyCombination.Modifier) -> UInt16 {
        switch modifier {
        case .control: Self.control
        case .shift: Self.shift
        case .alt: alt
        case .meta: meta
        case .superKey: superKey
        case .hyper: hyper
        case .mod1: 1 << 3
        case .mod2: 1 << 4
        case .mod3: 1 << 5
        case .mod4: 1 << 6
        case .mod5: 1 << 7
        }
    }

    /// The lock states a grab must not depend on: every combination of
    /// Num Lock and Caps Lock.
    public var lockVariants: [UInt16] {
        [0, Self.capsLock, numLock, Self.capsLock | numLock]
    }

    /// The modifiers that take part in matching a key press.
    public func significant(_ state: UInt16) -> UInt16 {
        state & 0xFF & ~(Self.capsLock | numLock)
    }
}
