import Logging

/// The keys of the desktop's lines in undod's log (Docs/USING.md, "The log").
extension LogKey {
    /// The X display could not be opened at start (none named, or its server did not answer), and what that means.
    static let x11Unavailable = LogKey("x11.unavailable")
    /// No EWMH window manager answers on the X display, and what focus is meanwhile.
    static let noWindowManager = LogKey("x11.no-window-manager")
    /// A window manager (named) answers on the X display now: focus follows its active window.
    static let windowManager = LogKey("x11.window-manager")
    /// The window manager on the X display stopped answering, and what focus is meanwhile.
    static let windowManagerGone = LogKey("x11.window-manager-gone")
    /// The X server went away (display and reason named), and what that means.
    static let x11Lost = LogKey("x11.lost")
    /// An X display that came later (named) is taken up: focus and keys follow it.
    static let x11TakenUp = LogKey("x11.taken-up")
    /// An X display that came later could not be opened; SIGHUP tries again.
    static let x11LaterUnavailable = LogKey("x11.later-unavailable")
    /// `focus.strategy = sway`, but no `SWAYSOCK` names sway.
    static let swayUnnamed = LogKey("sway.unnamed")
    /// sway answers at its socket (named): focus follows its focused view.
    static let swayAnswers = LogKey("sway.answers")
    /// sway stopped answering at its socket; undod looks for it again.
    static let swayLost = LogKey("sway.lost")
    /// sway refused a binding of the global keys (the key named).
    static let swayBindingRefused = LogKey("sway.binding-refused")
    /// undod's KWin script was loaded into KWin (its unique name given).
    static let kwinScriptLoaded = LogKey("kwin.script-loaded")
    /// KWin left the bus; the script goes into the next KWin that comes.
    static let kwinLeft = LogKey("kwin.left")
    /// undod's KWin script is not installed where undod looks.
    static let kwinScriptMissing = LogKey("kwin.script-missing")
    /// KWin refused to load undod's KWin script.
    static let kwinScriptRefused = LogKey("kwin.script-refused")
    /// KWin did not load undod's KWin script after several tries.
    static let kwinScriptFailed = LogKey("kwin.script-failed")
    /// Focus follows a compositor's reports once it sends them; until then another strategy.
    static let awaitingReports = LogKey("focus.awaiting-reports")
    /// Focus is recent, a guess: this Wayland session's compositor does not report to undod.
    static let focusGuess = LogKey("focus.guess")
    /// The session's desktop variables changed (each named with its value).
    static let desktopChanged = LogKey("desktop.changed")
    /// The environment offered on org.freedesktop.systemd1 by a process (named) that is not the user manager.
    static let environmentIgnored = LogKey("desktop.environment-ignored")
    /// The compositor would bind the keys and does not: undod asks the GlobalShortcuts portal meanwhile.
    static let portalFallback = LogKey("portal.fallback")
    /// The compositor binds the keys again: undod closes its GlobalShortcuts portal session.
    static let portalClosed = LogKey("portal.closed")
    /// A reloaded setting (named) takes effect only when undod restarts.
    static let needsRestart = LogKey("config.needs-restart")
}
