internal import CXKBCommon

/// A global key as people write it in a config file — `Ctrl+Alt+z`,
/// `Super+BackSpace`, `Ctrl+Alt+Shift+z` — parsed into modifiers and an X
/// key symbol. Key names are XKB's (`BackSpace`, `F12`, `Page_Up`, any case),
/// the usual short names (`Esc`, `Del`, `PgUp`, `Enter`), or one printable
/// character (`Ctrl+;`, `Ctrl++`). A letter names its key whatever its case
/// (`Ctrl+Alt+Z` is the z key, as menus print it): Shift is written out.
public struct KeyCombination: Sendable, Hashable, CustomStringConvertible {
    /// A modifier by its meaning; its X11 bit depends on the server's mapping.
    public enum Modifier: String, Sendable, Hashable, CaseIterable, Comparable {
        /// Control.
        case control = "Ctrl"
        /// Alt (Option).
        case alt = "Alt"
        /// Shift.
        case shift = "Shift"
        /// Super (the Windows, Command or logo key).
        case superKey = "Super"
        /// Meta (on most layouts the same as Alt).
        case meta = "Meta"
        /// Hyper.
        case hyper = "Hyper"
        /// The X modifier Mod1 … Mod5, by number.
        case mod1 = "Mod1", mod2 = "Mod2", mod3 = "Mod3", mod4 = "Mod4", mod5 = "Mod5"

        /// Orders modifiers as they are usually written: Ctrl+Alt+Shift+Super.
        public static func < (a: Modifier, b: Modifier) -> Bool {
            (allCases.firstIndex(of: a) ?? 0) < (allCases.firstIndex(of: b) ?? 0)
        }

        /// The modifier a written name stands for (any case), if any.
        static func named(_ text: String) -> Modifier? {
            switch text.lowercased() {
            case "ctrl", "control", "ctl", "primary": .control
            case "alt", "option", "opt": .alt
            case "shift": .shift
            case "super", "win", "logo", "cmd", "command": .superKey
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

    /// Short names people write for keys, and XKB's names for them.
    static let aliases: [String: String] = [
        "esc": "Escape", "del": "Delete", "ins": "Insert", "enter": "Return", "pgup": "Prior", "pageup": "Prior",
        "pgdn": "Next", "pgdown": "Next", "pagedown": "Next", "bksp": "BackSpace", "caps": "Caps_Lock",
    ]

    /// Parses `text`; throws what is wrong with it.
    public init(parsing text: String) throws(KeyCombinationError) {
        var parts = text.split(separator: "+", omittingEmptySubsequences: false).map { Self.trimmed($0) }
        // A trailing "++" is the plus key: Ctrl++.
        if parts.count >= 3, parts[parts.count - 1].isEmpty, parts[parts.count - 2].isEmpty {
            parts.removeLast(2)
            parts.append("+")
        }
        guard let key = parts.last, !key.isEmpty else { throw .missingKey(text) }
        var modifiers: Set<Modifier> = []
        for part in parts.dropLast() {
            guard !part.isEmpty else { throw .emptyPart(text) }
            guard let modifier = Modifier.named(part) else { throw .unknownModifier(part, in: text) }
            modifiers.insert(modifier)
        }
        if Modifier.named(key) != nil { throw .modifierAsKey(key, in: text) }
        guard let symbol = Self.symbol(named: key) else { throw .unknownKey(key, in: text) }
        if Self.isModifierKey(symbol) { throw .modifierAsKey(key, in: text) }
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
        return joined(names)
    }

    /// The combination as sway's `bindsym` takes it: `Ctrl+Mod1+Shift+z`.
    public var swayBinding: String {
        let names = modifiers.sorted().map { modifier -> String in
            switch modifier {
            case .control: "Ctrl"
            case .alt, .meta, .mod1: "Mod1"
            case .shift: "Shift"
            case .superKey, .hyper, .mod4: "Mod4"
            case .mod2: "Mod2"
            case .mod3: "Mod3"
            case .mod5: "Mod5"
            }
        }
        return joined(names)
    }

    /// `names` (each once, in order) and the key's name, joined with `+`.
    private func joined(_ names: [String]) -> String {
        var seen: Set<String> = []
        return (names.filter { seen.insert($0).inserted } + [keyName]).joined(separator: "+")
    }

    /// The X11 modifier mask that holds exactly these modifiers.
    public func mask(_ bits: ModifierBits) -> UInt16 {
        modifiers.reduce(0) { mask, modifier in mask | bits.bit(of: modifier) }
    }

    /// The key symbol of a name: an alias, XKB's name (exact, else ignoring
    /// case), or a single printable character; letters as lower case.
    static func symbol(named name: String) -> UInt32? {
        let scalars = Array(name.unicodeScalars)
        if scalars.count == 1, scalars[0].isASCII, scalars[0].properties.isAlphabetic {
            return xkb_keysym_from_name(name.lowercased(), XKB_KEYSYM_NO_FLAGS)
        }
        let name = aliases[name.lowercased()] ?? name
        let exact = xkb_keysym_from_name(name, XKB_KEYSYM_NO_FLAGS)
        if exact != 0 { return exact }
        let anyCase = xkb_keysym_from_name(name, XKB_KEYSYM_CASE_INSENSITIVE)
        if anyCase != 0 { return anyCase }
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

    private static func trimmed(_ part: Substring) -> String {
        let isBlank = { (c: Character) in c == " " || c == "\t" }
        return String(part.drop(while: isBlank).reversed().drop(while: isBlank).reversed())
    }
}
