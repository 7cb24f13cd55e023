/// The properties of `org.undod.Undo1.Stack` at one moment, typed: what the
/// daemon announces and what every client reads (`GetAll`,
/// `PropertiesChanged`, `GetManagedObjects`). The narrow interface: never
/// payloads.
public struct StackProperties: Sendable, Equatable {
    /// `AppId`.
    public var appId: String
    /// `Document` (`""` for the app's main stack).
    public var document: String
    /// `Title`.
    public var title: String
    /// `Owner`: the owner's unique name, `""` when detached.
    public var owner: String
    /// `CanUndo`.
    public var canUndo: Bool
    /// `CanRedo`.
    public var canRedo: Bool
    /// `UndoName` (`""` when none).
    public var undoName: String
    /// `RedoName` (`""` when none).
    public var redoName: String
    /// `UndoDepth`.
    public var undoDepth: UInt32
    /// `RedoDepth`.
    public var redoDepth: UInt32
    /// `Limit` (0: no count limit).
    public var limit: UInt32
    /// `Bytes`.
    public var bytes: UInt64
    /// `MaxBytes`.
    public var maxBytes: UInt64
    /// `Clean`.
    public var clean: Bool
    /// `Persistent`.
    public var persistent: Bool
    /// `GlobalTrigger`.
    public var globalTrigger: Bool

    /// Every property's name, in the order the interface declares them.
    public static let names = [
        "AppId", "Document", "Title", "Owner", "CanUndo", "CanRedo", "UndoName", "RedoName", "UndoDepth",
        "RedoDepth", "Limit", "Bytes", "MaxBytes", "Clean", "Persistent", "GlobalTrigger",
    ]

    /// Properties with every field given.
    public init(appId: String, document: String, title: String, owner: String, canUndo: Bool, canRedo: Bool,
                undoName: String, redoName: String, undoDepth: UInt32, redoDepth: UInt32, limit: UInt32,
                bytes: UInt64, maxBytes: UInt64, clean: Bool, persistent: Bool, globalTrigger: Bool) {
        self.appId = appId
        self.document = document
        self.title = title
        self.owner = owner
        self.canUndo = canUndo
        self.canRedo = canRedo
        self.undoName = undoName
        self.redoName = redoName
        self.undoDepth = undoDepth
        self.redoDepth = redoDepth
        self.limit = limit
        self.bytes = bytes
        self.maxBytes = maxBytes
        self.clean = clean
        self.persistent = persistent
        self.globalTrigger = globalTrigger
    }
}
