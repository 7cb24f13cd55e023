/// Why a key combination could not be parsed. Its description ends a
/// sentence that begins with the config key (`hotkey.undo …`).
public enum KeyCombinationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing after the last `+`: `Ctrl+`.
    case missingKey(String)
    /// Two `+` in a row where a modifier should be: `Ctrl++z`.
    case emptyPart(String)
    /// A modifier nobody knows: `Hyperdrive+z`.
    case unknownModifier(String, in: String)
    /// A modifier where the key should be: `Ctrl+Alt`, `Ctrl+Shift_L`.
    case modifierAsKey(String, in: String)
    /// A key nobody knows: `Ctrl+Alt+foo`.
    case unknownKey(String, in: String)

    /// The sentence's end.
    public var description: String {
        switch self {
        case .missingKey(let text):
            "must end with a key, as in Ctrl+Alt+z, not “\(text)”."
        case .emptyPart(let text):
            "has an empty part in “\(text)” (write Ctrl+Alt+z, or Ctrl++ for the plus key)."
        case .unknownModifier(let part, let text):
            "names an unknown modifier “\(part)” in “\(text)” (known: Ctrl, Alt, Shift, Super, Meta, Hyper, Mod1–Mod5)."
        case .modifierAsKey(let key, let text):
            "ends with the modifier “\(key)” in “\(text)”; it must end with an ordinary key, as in Ctrl+Alt+z."
        case .unknownKey(let key, let text):
            "names an unknown key “\(key)” in “\(text)” (use an XKB key name such as z, BackSpace, F12 or Page_Up)."
        }
    }
}
