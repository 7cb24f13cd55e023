import SafeText
package import Undo1
import UndoCore

/// The one place where each of the service's refusals gets its error name
/// and the sentence a caller reads.
extension ServiceError {
    /// The error a caller receives; `stack` describes the stack, e.g.
    /// `“Text Editor” (stack 3)`, or nil when none is involved.
    package func refusal(stack: String?) -> (name: Undo1ErrorName, sentence: String) {
        let subject = stack ?? "the stack"
        switch self {
        case .model(let error):
            return named(Self.name(of: error), error.sentence(stack: subject))
        case .notOwner(let caller):
            return named(.notOwner, "Only the owner of \(subject) may change it, and \(caller) is not: "
                + "register the stack from this connection first.")
        case .alreadyOwned(let owner):
            return named(.alreadyOwned, "\(subject) is already owned by \(owner): "
                + "use another document name, or close the stack in the other connection first.")
        case .notDetached:
            return named(.notDetached, "\(subject) still has a running application: quit it (or have it close "
                + "the stack, discarding the history), then forget the stack.")
        case .noFocusedStack(let why):
            return named(.noFocusedStack, "No stack has the focus\(why.map { " (\($0.clause))" } ?? ""): "
                + "focus an application that uses undod, or name a stack.")
        case .noOwner:
            return named(.noOwner, "\(subject) has no running application to apply changes: "
                + "start the application again so that it registers the stack.")
        case .clientFailed(let name, let message):
            return named(.clientFailed, "The application of \(subject) could not apply the change "
                + "(\(CallerText.escaped(name)): \(CallerText.escaped(message))); the history is unchanged, so you can try again.")
        case .obsolete:
            return named(.obsolete, "The application of \(subject) says this change can no longer be applied, "
                + "so it was removed from the history; undo or redo again for the next one.")
        case .storageFailed(let reason):
            return named(.storageFailed, "undod could not save the history of \(subject) (\(reason)); "
                + "the change was not made: free disk space or check the state directory, then try again.")
        case .tooLargeToSend(let bytes):
            return named(.payloadTooLarge, "The group pushed to \(subject) would take \(bytes) bytes in one "
                + "D-Bus message, more than the bus carries: split it into smaller groups.")
        case .notSaved(let reason):
            return named(.storageFailed, "The change to \(subject) was applied and is kept in memory, "
                + "but it is not yet on disk (\(reason)): free disk space or check the state directory; "
                + "undod writes it with the next change that saves.")
        case .timeout(let ms):
            return named(.timeout, "The application of \(subject) did not answer within \(ms) ms; "
                + "the history is unchanged: check that the application is responding, then try again.")
        case .queueFull(let limit):
            return named(.busy, "\(subject) already has \(limit) undo or redo requests waiting: "
                + "wait for them to finish, then try again.")
        case .triggerDisabled:
            return named(.triggerDisabled, "\(subject) does not allow undo or redo from outside its application: "
                + "use the application's own Undo command.")
        case .groupMoved(let direction, let name):
            let way = direction == .undo ? "undo" : "redo"
            return named(direction == .undo ? .nothingToUndo : .nothingToRedo,
                         "\(CallerText.quoted(name)) is no longer the next change to \(way) in \(subject), so nothing was done: "
                         + "\(way) again from the application.")
        case .unknownStack(let path):
            return named(.unknownStack, "There is no stack at \(CallerText.quoted(path)): run `undoctl list` to see the stacks.")
        case .damaged(let direction, let name, let alsoLost):
            let way = direction == .undo ? "undo" : "redo"
            let beyond = direction == .undo ? "older" : "later"
            let more = alsoLost == 0 ? "it was" : "it and \(alsoLost) \(beyond) change\(alsoLost == 1 ? "" : "s") were"
            return named(.storageFailed, "The saved data of \(CallerText.quoted(name)) in \(subject) is damaged, "
                + "so nothing was applied and \(more) removed from the history: \(way) again to go on from "
                + "what is left, and check undod's log and the state directory's disk.")
        case .tooManyStacks(let limit):
            return named(.tooManyStacks, "This connection already owns \(limit == 1 ? "a stack" : "\(limit) stacks"), as many as "
                + "limits.stacks_per_client allows, so \(subject) was not opened: close stacks it no longer "
                + "needs (Close), or raise the limit in undod.conf.")
        case .awaitingLateAnswer(let direction, let name):
            let way = direction == .undo ? "undo" : "redo"
            return named(.busy, "\(subject) is waiting for its application to answer the \(way) of "
                + "\(CallerText.quoted(name)), which it did not answer in time and may still apply: "
                + "try again once the application answers (or quits).")
        case .notAllowed(let caller):
            return named(.notAllowed, "Only the compositor (the owner of org.kde.KWin or org.gnome.Shell) may report "
                + "the window in front, and \(caller) is not: applications say they are active with Activate.")
        case .foreignOrigin(let made, let caller):
            return named(.notAllowed, "\(subject) was made by \(made), and only that program may take it back"
                + "\(caller.map { "; this is \($0)" } ?? ""): if the program moved or was reinstalled, "
                + "register with the document's state tag, or delete the old history with undoctl forget.")
        case .sandboxedAppId(let appId, let sandbox):
            return named(.invalidAppId, "The Flatpak app \(sandbox) may register only its own app id or names "
                + "beneath it (\(sandbox).Something), not \(CallerText.quoted(appId)).")
        case .notYours(let sandbox):
            return named(.notAllowed, "\(subject) belongs to another app, and \(sandbox) may read only the history "
                + "of its own stacks (of others, only the app id and title).")
        case .reportRefused(let reason):
            return named(.notAllowed, "undod takes the window in front only from the Wayland compositor itself, "
                + "and \(reason): applications say they are active with Activate.")
        case .notInFront(let window):
            return named(.notAllowed, "\(subject) is not in front: the window in front is \(window), and SetFocus "
                + "may only choose among that window's stacks; bring the application's window in front instead.")
        case .invalidArgs(let reason):
            return named(.invalidArgs, "\(reason) (for \(subject)).")
        }
    }

    private func named(_ name: Undo1ErrorName, _ sentence: String) -> (name: Undo1ErrorName, sentence: String) {
        (name, sentence)
    }

    /// The contract's name of a refusal by the model (UndoCore names its
    /// errors after the contract; the prefix is the contract's).
    private static func name(of error: UndoError) -> Undo1ErrorName {
        Undo1ErrorName(rawValue: Undo1ErrorName.prefix + error.name)
    }
}
