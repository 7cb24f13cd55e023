internal import CXKBCommon

/// A global key as people write it in a config file — `Ctrl+Alt+z`,
/// `Super+BackSpace`, `Ctrl+Alt+Shift+z` — parsed into modifiers and an X
/// key symbol. Key names are XKB's (`BackSpace`, `F12`, `Page_Up`, any case),
/// or one printable character (`Ctrl+;`).
public struct KeyCombination: Sendable, Hashable, CustomStringConvertible {
    /// A modifier by its meaning; its X11 bit depends on the server's mapping.
    public enum Modifier: String, Sendable, Hashable, CaseIterable, Comparable {
        case control = "Ctrl", alt = "Alt", shift = "Shift", superKey = "Super", meta = "Meta", hyper = "Hyper"
        case mod1 = "Mod1", mod2 = "Mod2", mod3 = "Mod3", mod4 = "Mod4", mod5 = "Mod5"

        /// Orders modifiers as they are usually written: Ctrl+Alt+Shift+Super.
        public static func < (a: Modifier, b: Modifier) -> Bool {
            (allCases.firstIndex(of: a) ?? 0) < (allCases.firstIndex(of: b) ?? 0)
        }

        /// The modifier a written name stands for (any case), if any.
        static func named(_ text: String) -> Modifier? {
            switch text.lowercased() {
            case "ctrl", "control": .control
            case "alt": .alt
            case "shift": .shift
            case "super", "win", "logo": .superKey
            case "meta": .meta
            case "hyper": .hyper
            case "mod1": .mod1
            case "mod2": .mod2
            case "mod3": .mod3
            case "mod4": .mod4
            case "mod5": .mod5
            default: nil
            }
        }
    }

    /// The modifiers that must be held.
    public let modifiers: Set<Modifier>
    /// The X key symbol of the key.
    public let symbol: UInt32
    /// The key's XKB name (`z`, `BackSpace`).
    public let keyName: String

    /// Parses `text`; throws a sentence saying what is wrong.
    public init(parsing text: String) throws(KeyCombinationError) {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false)
            .map { $0.drop { $0 == " " || $0 == "\t" } }
            .map { String($0.reversed().drop { $0 == " " || $0 == "\t" }.reversed()) }
        guard let key = parts.last, !key.isEmpty else {
            throw KeyCombinationError("must end with a key, as in Ctrl+Alt+z, not “\(text)”.")
        }
        var modifiers: Set<Modifier> = []
        for part in parts.dropLast() {
            guard let modifier = Modifier.named(part) else {
                throw KeyCombinationError(part.isEmpty
                    ? "has an empty part in “\(text)” (write Ctrl+Alt+z)."
                    : "names an unknown modifier “\(part)” in “\(text)” (known: Ctrl, Alt, Shift, Super, Meta, Hyper, Mod1–Mod5).")
            }
            modifiers.insert(modifier)
        }
        if Modifier.named(key) != nil {
            throw KeyCombinationError("must end with a key after the modifiers, as in \(key)+z, not “\(text)”.")
        }
        guard let symbol = Self.symbol(named: key) else {
            throw KeyCombinationError("names an unknown key “\(key)” in “\(text)” (use an XKB key name such as z, BackSpace, F12 or Page_Up).")
        }
        if Self.isModifierKey(symbol) {
            throw KeyCombinationError("ends with the modifier key “\(key)”; it must end with an ordinary key, as in Ctrl+Alt+z.")
        }
        self.modifiers = modifiers
        self.symbol = symbol
        self.keyName = Self.name(of: symbol) ?? key
    }

    /// The combination written back in a canonical form: `Ctrl+Alt+z`.
    public var description: String {
        (modifiers.sorted().map(\.rawValue) + [keyName]).joined(separator: "+")
    }

    /// The combination in the form of the XDG shortcuts specification, as
    /// the GlobalShortcuts portal takes a preferred trigger: `CTRL+ALT+z`.
    public var portalTrigger: String {
        let names = modifiers.sorted().compactMap { modifier -> String? in
            switch modifier {
            case .control: "CTRL"
            case .alt, .meta, .mod1: "ALT"
            case .shift: "SHIFT"
            case .superKey, .hyper, .mod4: "LOGO"
            case .mod2: "NUM"
            case .mod3, .mod5: nil
            }
        }
        var seen: Set<String> = []
        return (names.filter { seen.insert($0).inserted } + [keyName]).joined(separator: "+")
    }

    /// The X11 modifier mask that holds exactly these modifiers.
    public func mask(_ bits: ModifierBits) -> UInt16 {
        modifiers.reduce(0) { mask, modifier in
            mask | {
                switch modifier {
                case .control: ModifierBits.control
                case .shift: ModifierBits.shift
                case .alt: bits.alt
                case .meta: bits.meta
                case .superKey: bits.superKey
                case .hyper: bits.hyper
                case .mod1: 1 << 3
                case .mod2: 1 << 4
                case .mod3: 1 << 5
                case .mod4: 1 << 6
                case .mod5: 1 << 7
                }
            }()
        }
    }

    /// The key symbol of an XKB name (exact, else ignoring case), or of a
    /// single printable character.
    static func symbol(named name: String) -> UInt32? {
        let exact = xkb_keysym_from_name(name, XKB_KEYSYM_NO_FLAGS)
        if exact != 0 { return exact }
        let anyCase = xkb_keysym_from_name(name, XKB_KEYSYM_CASE_INSENSITIVE)
        if anyCase != 0 { return anyCase }
        let scalars = Array(name.unicodeScalars)
        if scalars.count == 1, !scalars[0].properties.isWhitespace, scalars[0].value >= 0x20 {
            let symbol = xkb_utf32_to_keysym(scalars[0].value)
            if symbol != 0 { return symbol }
        }
        return nil
    }

    /// XKB's name of a key symbol.
    static func name(of symbol: UInt32) -> String? {
        var buffer = [CChar](repeating: 0, count: 64)
        let length = xkb_keysym_get_name(symbol, &buffer, buffer.count)
        guard length > 0 else { return nil }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Shift, Control, Alt, Meta, Super, Hyper (left and right), the locks
    /// and ISO level shifts: keys that modify, and cannot be the key itself.
    static func isModifierKey(_ symbol: UInt32) -> Bool {
        (0xFFE1...0xFFEE).contains(symbol) || (0xFE01...0xFE13).contains(symbol) || symbol == 0xFF7F
    }
}

/// Why a key combination could not be parsed, as the end of a sentence
/// that begins with the config key (`hotkey.undo …`).
public struct KeyCombinationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sentence's end.
    public let description: String
    init(_ description: String) { self.description = description }
}
