import DBus
import Undo1

/// Every failure of UndoKit: `name` is a D-Bus error name (e.g.
/// `org.undod.Undo1.Error.NothingToUndo`), `message` its sentence. Two
/// errors are equal when their names are, so the constants below work as
/// `catch` patterns: `catch UndoKitError.nothingToUndo { … }`.
public struct UndoKitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The D-Bus error name.
    public let name: String
    /// What happened, as a sentence.
    public let message: String

    /// An error with this name and sentence.
    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// Equal when the names are: the sentence varies, the meaning does not.
    public static func == (a: UndoKitError, b: UndoKitError) -> Bool { a.name == b.name }

    /// Lets the constants serve as `catch` patterns for any error:
    /// `catch UndoKitError.nothingToUndo { … }`.
    public static func ~= (pattern: UndoKitError, error: any Error) -> Bool {
        (error as? UndoKitError)?.name == pattern.name
    }

    /// `name: message`.
    public var description: String { "\(name): \(message)" }

    /// What UndoKit's own errors (not undod's) are named under.
    public static let prefix = "org.undod.UndoKit.Error."

    private init(undo1 name: Undo1ErrorName, _ message: String) {
        self.init(name: name.rawValue, message: message)
    }

    private init(own name: String, _ message: String) {
        self.init(name: Self.prefix + name, message: message)
    }

    /// Thrown by an apply handler: the group can never be applied, so undod
    /// drops it (and answers whoever asked with `Obsolete`). Also what an
    /// undo answers when that happened.
    public static let obsolete = UndoKitError(undo1: .obsolete, "The change can no longer be applied; it was dropped.")
    /// Nothing to undo.
    public static let nothingToUndo = UndoKitError(undo1: .nothingToUndo, "There is nothing to undo.")
    /// Nothing to redo.
    public static let nothingToRedo = UndoKitError(undo1: .nothingToRedo, "There is nothing to redo.")
    /// An undo or redo is being applied: try again once it is done.
    public static let busy = UndoKitError(undo1: .busy, "The stack is busy applying an undo or redo.")
    /// No stack has the focus (`undoFocused`).
    public static let noFocusedStack = UndoKitError(undo1: .noFocusedStack, "No stack has the focus.")
    /// The application's apply handler failed; the stack is unchanged.
    public static let clientFailed = UndoKitError(undo1: .clientFailed, "The application could not apply the change.")
    /// The stack is owned by another connection.
    public static let alreadyOwned = UndoKitError(undo1: .alreadyOwned, "The stack is owned by another application.")
    /// The owner did not apply the change within undod's `apply.timeout_ms`;
    /// the stack is unchanged.
    public static let timeout = UndoKitError(undo1: .timeout, "The application did not answer in time.")
    /// undod could not write its store; the change was not made (or, for an
    /// undo the app applied, is kept in memory only).
    public static let storageFailed = UndoKitError(undo1: .storageFailed, "undod could not save the history.")
    /// The stack has no live owner to apply anything.
    public static let noOwner = UndoKitError(undo1: .noOwner, "The stack has no running application.")
    /// A group larger than the stack may keep.
    public static let payloadTooLarge = UndoKitError(undo1: .payloadTooLarge, "The group is too large.")
    /// The stack opted out of undo from outside its application.
    public static let triggerDisabled = UndoKitError(undo1: .triggerDisabled, "The stack opted out of the global trigger.")
    /// This connection owns as many stacks as it may.
    public static let tooManyStacks = UndoKitError(undo1: .tooManyStacks, "Too many stacks for one connection.")
    /// An app id that is not 1–255 characters of `[A-Za-z0-9._-]`.
    public static let invalidAppId = UndoKitError(undo1: .invalidAppId, "The app id is not valid.")
    /// A group name that is empty, too long, or holds control characters.
    public static let invalidName = UndoKitError(undo1: .invalidName, "The group name is not valid.")
    /// A group without actions.
    public static let emptyGroup = UndoKitError(undo1: .emptyGroup, "The group has no actions.")
    /// An owner's operation from another connection.
    public static let notOwner = UndoKitError(undo1: .notOwner, "Only the stack's owner may do that.")
    /// No stack at that path (undod restarted without keeping it, say).
    public static let unknownStack = UndoKitError(undo1: .unknownStack, "There is no such stack.")
    /// undod is not running (nothing owns `org.undod.Undo1`), or the bus is
    /// gone. Keep working without undo; UndoKit registers again by itself
    /// when undod comes back.
    public static let daemonUnavailable = UndoKitError(own: "DaemonUnavailable", "undod is not running on this bus.")
    /// undod called `Apply` for a stack this client does not hold (a stack
    /// closed meanwhile).
    public static let noSuchStackHere = UndoKitError(own: "NoSuchStackHere", "This application holds no such stack.")
    /// The app's apply handler threw an error that is not an `UndoKitError`.
    public static let handlerFailed = UndoKitError(own: "HandlerFailed", "The apply handler failed.")
    /// The app set no apply handler before undod asked it to apply something.
    public static let noHandler = UndoKitError(own: "NoHandler", "The application set no apply handler.")
    /// undod answered in a shape the contract does not give that call.
    public static let badReply = UndoKitError(own: "BadReply", "undod answered in an unexpected shape.")
    /// Someone other than undod called the application's `Apply`.
    public static let accessDenied = UndoKitError(name: DBusError.Names.accessDenied,
                                                  message: "Only undod may ask this application to apply changes.")
    /// The task was cancelled before the call was sent; nothing was done.
    public static let cancelled = UndoKitError(own: "Cancelled", "The call was cancelled before it was sent.")
    /// The client was closed.
    public static let closed = UndoKitError(own: "Closed", "The UndoClient was closed.")

    /// The error an answer from the bus or undod means.
    init(_ error: DBusError) {
        switch error.name {
        case DBusError.Names.serviceUnknown, DBusError.Names.nameHasNoOwner, DBusError.Names.disconnected,
             DBusError.Names.noServer:
            self.init(name: Self.daemonUnavailable.name, message: "undod is not there to answer (\(error.message)).")
        case DBusError.Names.unknownObject:
            self.init(name: Self.unknownStack.name, message: "There is no such stack (\(error.message)).")
        default:
            self.init(name: error.name, message: error.message)
        }
    }
}
