import Logging

/// The keys of the service's lines in undod's log (Docs/USING.md, "The log").
extension LogKey {
    /// Stacks read back from the store at start, detached until their apps return.
    static let stacksRestored = LogKey("stacks.restored")
    /// A stack's history discarded on adoption: the state tag no longer matches the document.
    static let historyDiscarded = LogKey("stack.history-discarded")
    /// An adoption refused: the stack belongs to a program of another origin.
    static let adoptionRefused = LogKey("stack.adoption-refused")
    /// A stack registered (routine detail: who, which stack, for which app).
    static let stackRegistered = LogKey("stack.registered")
    /// An undo or redo a caller asked for was applied (routine detail: who, where, which group).
    static let callApplied = LogKey("call.applied")
    /// An undo or redo a caller asked for was refused (routine detail: who, where, the error's name and sentence).
    static let callRefused = LogKey("call.refused")
    /// A turn's changes could not be saved: its calls are answered StorageFailed (said once per failure).
    static let saveFailed = LogKey("store.save-failed")
    /// The store saves again after failing.
    static let savesAgain = LogKey("store.saves-again")
    /// A stack's saved history could not be read back after a failed save.
    static let readBackFailed = LogKey("store.read-back-failed")
    /// The payloads of a stack's top group could not be read before a push.
    static let payloadsUnreadable = LogKey("store.payloads-unreadable")
    /// A group's payloads are damaged: it and the groups beyond it were dropped.
    static let groupDamaged = LogKey("store.group-damaged")
}
