import SafeText

/// A refusal by the undo model. Each case is one of the wire contract's
/// errors: `name` is its short name (the daemon prefixes
/// `org.undod.Undo1.Error.`), and `sentence(stack:)` is the readable message.
public enum UndoError: Error, Sendable, Hashable {
    /// An app id that is not 1–255 characters from `[A-Za-z0-9._-]`; carries the id given.
    case invalidAppId(String)
    /// A group name that is empty, too long or holds control characters.
    case invalidName(NameProblem)
    /// A group (a merged group included) larger than the stack's `MaxBytes`.
    case payloadTooLarge(bytes: UInt64, maxBytes: UInt64)
    /// A push with no actions.
    case emptyGroup
    /// An undo on a stack whose undo side is empty.
    case nothingToUndo
    /// A redo on a stack whose redo side is empty.
    case nothingToRedo
    /// A change refused because an undo or redo of this direction is in flight.
    case busy(Direction)
    /// Every group id has been handed out; no new group can be made.
    case groupIDsExhausted
    /// The group's actions are still in the store and were not loaded.
    case actionsNotLoaded(group: UInt64)

    /// The spec's short error name, e.g. `"NothingToUndo"`. This is the one
    /// place where model errors map to wire names.
    public var name: String {
        switch self {
        case .invalidAppId: "InvalidAppId"
        case .invalidName: "InvalidName"
        case .payloadTooLarge: "PayloadTooLarge"
        case .emptyGroup: "EmptyGroup"
        case .nothingToUndo: "NothingToUndo"
        case .nothingToRedo: "NothingToRedo"
        case .busy: "Busy"
        case .groupIDsExhausted: "StorageFailed"
        case .actionsNotLoaded: "StorageFailed"
        }
    }

    /// One readable sentence that names the stack (as the caller describes
    /// it, e.g. `"Text Editor (stack 3)"`) and says what to do.
    public func sentence(stack: String) -> String {
        switch self {
        case .invalidAppId(let id):
            return "The app id \(CallerText.quoted(id)) given for \(stack) is not valid: "
                + "use 1 to 255 characters from letters, digits, '.', '_' and '-'."
        case .invalidName(.empty):
            return "The group pushed to \(stack) has an empty name: give it a short name such as \"Typing\"."
        case .invalidName(.tooLong(let count)):
            return "The group name pushed to \(stack) has \(count) characters: "
                + "shorten it to at most 256."
        case .invalidName(.controlCharacter):
            return "The group name pushed to \(stack) contains a control character: "
                + "remove tabs, line breaks and other control characters from it."
        case .payloadTooLarge(let bytes, let maxBytes):
            return "The group of \(bytes) bytes is larger than the \(maxBytes) bytes that \(stack) may keep: "
                + "split it into smaller groups, or register with a larger max_bytes."
        case .emptyGroup:
            return "The group pushed to \(stack) has no actions: push at least one action."
        case .nothingToUndo:
            return "There is nothing to undo in \(stack): push a change first."
        case .nothingToRedo:
            return "There is nothing to redo in \(stack): undo a change first."
        case .busy(.undo):
            return "\(stack) is busy applying an undo: try again once it has finished."
        case .busy(.redo):
            return "\(stack) is busy applying a redo: try again once it has finished."
        case .groupIDsExhausted:
            return "\(stack) cannot record a new group because every group id has been used: "
                + "delete the history store and restart undod."
        case .actionsNotLoaded(let group):
            return "The payloads of group \(group) in \(stack) could not be read from the history store: "
                + "check the state directory and undod's log, then try again."
        }
    }
}

extension UndoError: CustomStringConvertible {
    /// The error's sentence for an unnamed stack.
    public var description: String { sentence(stack: "the stack") }
}
