import SafeText
package import Undo1
package import UndoCore

/// Everything the daemon knows of one stack: its identity, its owner, the
/// settings it asked for, its history (the model), its activity and its
/// queue of undo/redo requests. Confined to the loop.
package final class StackRecord {
    /// The stack's number, never reused while the store exists.
    package let number: UInt64
    /// The app id it was registered with.
    package let appId: String
    /// The document (`""` for the app's main stack).
    package let document: String
    /// The human name shown by `undoctl` and in notifications.
    package var title: String
    /// The program that made the stack (or last adopted it), which alone
    /// may adopt it when detached; nil for a stack stored before undod kept
    /// origins, until its next adoption (see `StackOrigin`).
    package var origin: StackOrigin?
    /// Who owns the stack, nil when detached; changed only by
    /// `StackRegistry`, which keeps its index by owner. An owner that left
    /// the bus stays here until the record catches up (`hasDepartedOwner`).
    var ownership: StackOwner?
    /// The limits as the owner asked (0 = the config's value).
    var requestedLevels: UInt32
    /// The byte limit as the owner asked (0 = the config's value).
    var requestedMaxBytes: UInt64
    /// Whether the history is kept on disk.
    var persistent: Bool
    /// Whether the system-wide trigger may undo this stack.
    var globalTrigger: Bool
    /// The history.
    package var stack: UndoStack

    /// What `body` reads of the history, lent in place: a method called as
    /// `record.stack.…` can copy the whole model first (every group's
    /// strings and buffers retained and released), as `HistoryEditor.push`'s
    /// reads did at every push.
    @inline(__always)
    package func readingStack<T>(_ body: (borrowing UndoStack) -> T) -> T {
        body(stack)
    }
    /// The X11 ids of the owner's top-level windows (`windows`): kept while
    /// the owner is attached, forgotten when it leaves (ids are reused).
    package var windows: Set<UInt32> {
        get { isAttached ? declaredWindows : [] }
        set { declaredWindows = newValue }
    }
    private var declaredWindows: Set<UInt32> = []
    /// The process the stack serves (`process`): kept while the owner is
    /// attached, forgotten when it leaves, as its windows are.
    package var servedProcess: ServedProcess? {
        get { isAttached ? served : nil }
        set { served = newValue }
    }
    private var served: ServedProcess?
    /// The history's bytes as `StackRegistry` last counted them into its
    /// total; nil while the record is not in a registry.
    var countedBytes: UInt64?
    /// When the stack was last active (Register, Activate, push), as an
    /// ordering number: larger is more recent.
    var activity: UInt64 = 0
    /// Whether the owner said its app lost the user's focus (`Deactivate`)
    /// and has not been active since: `recent` then does not focus it.
    var isDeactivated = false
    /// When the owner left (µs since the epoch), for `stacks.detached_ttl`.
    package var detachedSince: Int64? {
        get { ownership?.leftAt ?? settledDetachedSince }
        set { settledDetachedSince = newValue }
    }
    private var settledDetachedSince: Int64?
    /// The undo/redo requests waiting for, or in, an `Apply`.
    package let applies = ApplyQueue()
    /// The property values last announced with PropertiesChanged.
    var announced: StackProperties?

    /// Makes a record for a new or restored stack, without an owner
    /// (`StackRegistry.add` gives it one).
    package init(number: UInt64, appId: String, document: String, title: String,
                requestedLevels: UInt32, requestedMaxBytes: UInt64, persistent: Bool, globalTrigger: Bool,
                stack: UndoStack) {
        self.number = number
        self.path = StackPath(number: number).path
        self.appId = appId
        self.document = document
        self.title = title
        self.requestedLevels = requestedLevels
        self.requestedMaxBytes = requestedMaxBytes
        self.persistent = persistent
        self.globalTrigger = globalTrigger
        self.stack = stack
    }

    /// The stack's object path.
    package let path: String

    /// The owner, while it is connected.
    private var liveOwner: StackOwner? { ownership?.leftAt == nil ? ownership : nil }

    /// The owner's unique bus name, `""` when detached (its owner left).
    package var owner: String { liveOwner?.name ?? "" }

    /// Whether the stack has a live owner.
    package var isAttached: Bool { liveOwner != nil }

    /// Whether its owner left the bus and the record has not caught up
    /// with the detach yet (`UndoService.settle`).
    package var hasDepartedOwner: Bool { ownership?.leftAt != nil }

    /// How errors and logs name the stack: `“Text Editor” (stack 3)`.
    package var displayName: String { "\(CallerText.quoted(title)) (stack \(number))" }

    /// The settings in force: what the owner asked, or the config's values.
    func stackSettings(under settings: ServiceSettings) -> StackSettings {
        StackSettings(
            levels: requestedLevels == 0 ? settings.levels : requestedLevels,
            maxBytes: requestedMaxBytes == 0 ? settings.maxBytes : requestedMaxBytes,
            mergeWindowMilliseconds: settings.mergeWindowMilliseconds)
    }

    /// The Stack interface's properties as they are now.
    package var properties: StackProperties { StackProperties(of: self) }

}
