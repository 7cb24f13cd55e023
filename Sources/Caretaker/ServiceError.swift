package import UndoCore

/// A refusal by the service: every error of the wire contract. The Bus
/// layer gives each its D-Bus name and one sentence that names the stack
/// and says what to do (`ServiceError+DBus.swift`).
package enum ServiceError: Error, Sendable, Equatable {
    /// The model refused (bad name, nothing to undo, busy, …).
    case model(UndoError)
    /// Someone other than the owner tried an owner's operation.
    case notOwner(caller: String)
    /// The stack has another live owner.
    case alreadyOwned(owner: String)
    /// `Forget` of a stack that still has a live owner.
    case notDetached
    /// A trigger found no focused stack (and why, where the strategy knows).
    case noFocusedStack(NoFocus?)
    /// The stack has no live owner to apply anything.
    case noOwner
    /// The owner's `Apply` answered with an error.
    case clientFailed(name: String, message: String)
    /// The owner said the group can no longer be applied; it was dropped.
    case obsolete
    /// A group whose payloads could not be sent back in one D-Bus message.
    case tooLargeToSend(bytes: Int)
    /// The store could not write: the change was not made.
    case storageFailed(String)
    /// The store could not write an undo or redo the owner already applied:
    /// it stays in memory and will be written with the next commit.
    case notSaved(String)
    /// The owner did not answer `Apply` in time.
    case timeout(milliseconds: UInt32)
    /// Too many undo/redo calls already wait on the stack.
    case queueFull(limit: UInt32)
    /// A foreign undo/redo of a stack that opted out of the global trigger.
    case triggerDisabled
    /// A notification's button offered to undo or redo a group that is no
    /// longer the next one that way (the history moved since).
    case groupMoved(Direction, name: String)
    /// No stack at the path given.
    case unknownStack(String)
    /// The next group's stored payloads were damaged: it and `alsoLost`
    /// groups beyond it on that side were dropped, nothing was applied.
    case damaged(Direction, name: String, alsoLost: Int)
    /// The caller owns `limits.stacks_per_client` stacks already.
    case tooManyStacks(limit: UInt32)
    /// The owner did not answer an `Apply` in time and may still apply it:
    /// the stack waits for that answer (the group's direction and name).
    case awaitingLateAnswer(Direction, name: String)
    /// `ReportFocus` from a connection that owns no compositor's name.
    case notAllowed(caller: String)
    /// `Register` would adopt a detached stack that another program made
    /// (`made`, for a sentence; `caller` the caller's, where known).
    case foreignOrigin(made: String, caller: String?)
    /// A sandboxed app registered an app id outside its sandbox's.
    case sandboxedAppId(String, sandbox: String)
    /// A sandboxed app asked for the history of a stack it did not make.
    case notYours(sandbox: String)
    /// `ReportFocus` from the owner of a compositor's name that is not the
    /// compositor, or in a session that takes no reports (why, as a clause).
    case reportRefused(String)
    /// `SetFocus` of a stack that is not one of the window in front's.
    case notInFront(window: String)
    /// An option or hint of the wrong type.
    case invalidArgs(String)
}
