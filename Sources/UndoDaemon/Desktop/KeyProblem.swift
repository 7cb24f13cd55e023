/// Why the global undo key cannot work on this desktop now: each way it
/// can be dead without anyone pressing it learning why. Its `sentence`
/// names the cause and the one command that fixes it; it is what the log
/// says once, what `KeyProblem` (and so `undoctl status`) shows while it
/// lasts, and what the one notification of a run says.
enum KeyProblem: Equatable {
    /// GNOME on Wayland, where only undod's extension binds the key and
    /// reports the window in front, and GNOME Shell says it is not active.
    case gnomeExtension(GnomeExtensionState)
    /// KDE, where only undod's KWin script binds the key, and it did not
    /// load: `why` is a clause ("it is not installed …").
    case kwinScript(why: String)
    /// undod knows no display: neither `DISPLAY`, `WAYLAND_DISPLAY` nor
    /// `SWAYSOCK` is in its environment or the user manager's (an undod
    /// started by D-Bus activation before the session's variables reached
    /// the activation environment).
    case noDisplay

    /// The extension's uuid, as `gnome-extensions` takes it.
    static let extensionUUID = "undod@undod.org"

    /// One sentence: what is wrong, and the command that fixes it.
    var sentence: String {
        switch self {
        case .gnomeExtension(let state):
            "The global undo key cannot reach the window in front on this GNOME desktop: " + state.clause
        case .kwinScript(let why):
            "The global undo key cannot reach the window in front on this KDE desktop: undod's KWin script \(why); "
                + "reinstall undod (its package, or `make install`) and run `systemctl --user restart undod`."
        case .noDisplay:
            "The global undo key does nothing: undod was started without the session's display (no DISPLAY, "
                + "WAYLAND_DISPLAY or SWAYSOCK); run `dbus-update-activation-environment --systemd DISPLAY "
                + "WAYLAND_DISPLAY SWAYSOCK XDG_CURRENT_DESKTOP` in the session, then `pkill -HUP -x undod`."
        }
    }
}
