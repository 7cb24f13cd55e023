/// The name of an error undod answers: an open set, as swift-system's
/// `Errno` is — the contract's names are here, and a newer daemon's name
/// still fits. Each constant is `org.undod.Undo1.Error.<Name>`.
public struct Undo1ErrorName: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The full D-Bus error name.
    public let rawValue: String

    /// The error named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// What every undod error name begins with.
    public static let prefix = "org.undod.Undo1.Error."

    private init(_ name: String) { rawValue = Self.prefix + name }

    /// The name, e.g. `org.undod.Undo1.Error.NothingToUndo`.
    public var description: String { rawValue }

    /// An app id that is not 1–255 characters of `[A-Za-z0-9._-]`.
    public static let invalidAppId = Undo1ErrorName("InvalidAppId")
    /// A group name that is empty, too long, or holds control characters.
    public static let invalidName = Undo1ErrorName("InvalidName")
    /// A group larger than the stack may keep, or than one message carries.
    public static let payloadTooLarge = Undo1ErrorName("PayloadTooLarge")
    /// A `PushGroup` without actions.
    public static let emptyGroup = Undo1ErrorName("EmptyGroup")
    /// An owner's operation from someone else.
    public static let notOwner = Undo1ErrorName("NotOwner")
    /// A `Register` of a stack another live connection owns.
    public static let alreadyOwned = Undo1ErrorName("AlreadyOwned")
    /// A `Forget` of a stack that has a live owner.
    public static let notDetached = Undo1ErrorName("NotDetached")
    /// Nothing on the undo side.
    public static let nothingToUndo = Undo1ErrorName("NothingToUndo")
    /// Nothing on the redo side.
    public static let nothingToRedo = Undo1ErrorName("NothingToRedo")
    /// No stack has the focus.
    public static let noFocusedStack = Undo1ErrorName("NoFocusedStack")
    /// The stack has no live owner to apply anything.
    public static let noOwner = Undo1ErrorName("NoOwner")
    /// The owner's `Apply` failed; the message carries its error.
    public static let clientFailed = Undo1ErrorName("ClientFailed")
    /// The group can never be applied; it was dropped. Also what an
    /// application answers `Apply` with to say so.
    public static let obsolete = Undo1ErrorName("Obsolete")
    /// The store could not write.
    public static let storageFailed = Undo1ErrorName("StorageFailed")
    /// The owner did not answer `Apply` in time.
    public static let timeout = Undo1ErrorName("Timeout")
    /// An apply is in flight, or too many wait.
    public static let busy = Undo1ErrorName("Busy")
    /// The stack opted out of the global trigger.
    public static let triggerDisabled = Undo1ErrorName("TriggerDisabled")
    /// No stack at that path.
    public static let unknownStack = Undo1ErrorName("UnknownStack")
    /// One connection owns as many stacks as it may.
    public static let tooManyStacks = Undo1ErrorName("TooManyStacks")
    /// `ReportFocus` from anyone but the compositor.
    public static let notAllowed = Undo1ErrorName("NotAllowed")

    /// A call's arguments or options that are malformed (the bus's own
    /// `org.freedesktop.DBus.Error.InvalidArgs`, which the contract uses).
    public static let invalidArgs = Undo1ErrorName(rawValue: "org.freedesktop.DBus.Error.InvalidArgs")
}
