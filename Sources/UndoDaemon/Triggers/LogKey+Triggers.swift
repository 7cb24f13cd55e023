import Logging

/// The keys of the triggers' lines in undod's log (Docs/USING.md, "The log").
extension LogKey {
    /// A trigger (the source named: a key, a signal, a notification's button) undid or redid a group (named).
    static let triggerApplied = LogKey("trigger.applied")
    /// A trigger's undo or redo was refused: its source, then the refusal's sentence.
    static let triggerRefused = LogKey("trigger.refused")
    /// `notify.confirm` is on but `notify.enabled` is off: undod cannot ask, and undoes nothing.
    static let cannotAsk = LogKey("trigger.cannot-ask")
    /// A trigger asks before undoing a group (named) in a stack (named).
    static let confirmAsked = LogKey("confirm.asked")
    /// A question was answered otherwise than Undo (the answer named): nothing was undone.
    static let confirmDeclined = LogKey("confirm.declined")
    /// A question was closed, not shown or not answered in time: nothing was undone.
    static let confirmUnanswered = LogKey("confirm.unanswered")
    /// Asking the notification server to show a notification (routine detail: its summary).
    static let notifyAsking = LogKey("notify.asking")
    /// A notification was shown (routine detail: the server's id for it, and its summary).
    static let notifyShown = LogKey("notify.shown")
    /// No notification could be shown (routine detail: the error; said once until one is shown).
    static let notifyFailed = LogKey("notify.failed")
    /// The global keys grabbed on the X display (named): each key and whether it undoes or redoes.
    static let x11KeysGrabbed = LogKey("x11.keys-grabbed")
    /// The key codes each global key is grabbed on (routine detail: "Ctrl+Alt+z on key code 52").
    static let x11KeyCodes = LogKey("x11.key-codes")
    /// A global key (named, with its setting) is taken by another program on the X display.
    static let x11KeyTaken = LogKey("x11.key-taken")
    /// A global key's symbol is on no key of this keyboard: it is not grabbed.
    static let x11NoSuchKey = LogKey("x11.no-such-key")
    /// The X server did not describe its keyboard: the global keys are not grabbed.
    static let x11NoKeyboard = LogKey("x11.no-keyboard")
    /// undod asks the GlobalShortcuts portal to bind the global keys (the desktop may ask the user).
    static let portalAsking = LogKey("portal.asking")
    /// The GlobalShortcuts portal bound the global keys: each as the desktop describes its trigger.
    static let portalBound = LogKey("portal.bound")
    /// The portal does not know undod by name: the desktop entry to install is named.
    static let portalUnnamed = LogKey("portal.unnamed")
    /// No GlobalShortcuts portal binds the global keys (the reason given): bind the commands yourself.
    static let portalUnavailable = LogKey("portal.unavailable")
    /// Why the global key cannot work on this desktop, with the command that fixes it (once per cause and run).
    static let keysProblem = LogKey("keys.problem")
}
