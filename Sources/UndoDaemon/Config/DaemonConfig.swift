package import Caretaker
package import X11

/// Every setting of `undod.conf`, with the spec's defaults.
package struct DaemonConfig: Sendable, Equatable {
    /// The service's settings: `limits.*`, `apply.*`, `merge.*`, `stacks.*`
    /// and `focus.follows_push`.
    package var service = ServiceSettings()
    /// `focus.strategy`: `auto`, `recent` or `x11`.
    package var focusStrategy: FocusStrategyName = .auto
    /// `hotkey.undo`: the global undo key; nil (empty in the file) for none.
    package var hotkeyUndo: KeyCombination? = Self.key("Ctrl+Alt+z")
    /// `hotkey.redo`: the global redo key; nil (empty in the file) for none.
    package var hotkeyRedo: KeyCombination? = Self.key("Ctrl+Alt+Shift+z")
    /// `notify.enabled`: the feedback notification.
    package var notifyEnabled = true
    /// `notify.confirm`: when to ask before a triggered undo.
    package var notifyConfirm: Confirm = .whileGuessing

    /// The built-in defaults.
    package init() {}

    /// A default key (the names are known good).
    private static func key(_ text: String) -> KeyCombination? {
        try? KeyCombination(parsing: text)
    }

    /// `notify.confirm`: `true`, `false` or `auto`.
    package enum Confirm: String, Sendable, Equatable {
        /// `true`: always ask.
        case always = "true"
        /// `false`: never ask.
        case never = "false"
        /// `auto`: ask while focus is a guess (`recent` with a display present).
        case whileGuessing = "auto"
    }

    /// The names `focus.strategy` accepts.
    package enum FocusStrategyName: String, Sendable, CaseIterable {
        /// sway where it answers, kwin or gnome where that desktop's
        /// compositor reports, x11 where an EWMH window manager answers,
        /// else recent.
        case auto
        /// The most recently active stack.
        case recent
        /// The stack of the active X11 window's process.
        case x11
        /// The stack of the process whose view sway says is focused.
        case sway
        /// The stack of the process KWin reports in front (its script).
        case kwin
        /// The stack of the process GNOME Shell reports in front (its extension).
        case gnome
    }
}
