public import UndoCore

/// One stack as the store keeps it: its row (identity, what the owner asked
/// for, where its states stand) and its groups, whose actions stay on disk
/// until `HistoryDatabase.encodedActions(ofGroup:)` reads them.
public struct StoredStack: Sendable, Equatable {
    /// Everything but the groups.
    public var row: StackRow
    /// The undo side, oldest first (unloaded groups).
    public var undo: [ActionGroup]
    /// The redo side, next to redo first (unloaded groups).
    public var redo: [ActionGroup]

    /// Makes a stored stack.
    public init(row: StackRow, undo: [ActionGroup], redo: [ActionGroup]) {
        self.row = row
        self.undo = undo
        self.redo = redo
    }
}

/// A stack's row in the store: everything but its groups.
public struct StackRow: Sendable, Equatable {
    /// The stack's number.
    public var number: UInt64
    /// The app id.
    public var appId: String
    /// The document.
    public var document: String
    /// The title.
    public var title: String
    /// The `limit` the owner asked for (0 = the config's).
    public var requestedLevels: UInt32
    /// The `max_bytes` the owner asked for (0 = the config's).
    public var requestedMaxBytes: UInt64
    /// Whether the system-wide trigger may undo it.
    public var globalTrigger: Bool
    /// When its owner left (µs since the epoch); nil while it had one.
    public var detachedSince: Int64?
    /// The name of the bottom state.
    public var baseStateID: UInt64
    /// The state tag of the bottom state.
    public var baseStateTag: String
    /// Where the clean state is.
    public var clean: CleanState
    /// Whether a push may merge into the top group.
    public var topIsMergeable: Bool
    /// The program that made the stack, as the daemon writes it
    /// (`StackOrigin.key`); `""` for a stack stored before schema 5.
    public var origin: String

    /// Makes a row.
    public init(number: UInt64, appId: String, document: String, title: String, requestedLevels: UInt32,
                requestedMaxBytes: UInt64, globalTrigger: Bool, detachedSince: Int64?, baseStateID: UInt64,
                baseStateTag: String, clean: CleanState, topIsMergeable: Bool, origin: String = "") {
        self.number = number
        self.appId = appId
        self.document = document
        self.title = title
        self.requestedLevels = requestedLevels
        self.requestedMaxBytes = requestedMaxBytes
        self.globalTrigger = globalTrigger
        self.detachedSince = detachedSince
        self.baseStateID = baseStateID
        self.baseStateTag = baseStateTag
        self.clean = clean
        self.topIsMergeable = topIsMergeable
        self.origin = origin
    }

    /// Whether `other` is this row with another `detachedSince` (and nothing else).
    public func differsOnlyInDetachedSince(from other: StackRow) -> Bool {
        guard detachedSince != other.detachedSince else { return false }
        var same = self
        same.detachedSince = other.detachedSince
        return same == other
    }

    /// Whether `other` is this row with only what a push, an undo or a trim
    /// moves changed (the bottom state, the clean state, whether the top
    /// may merge): the stack's identity and settings are the same.
    public func differsOnlyInHistoryState(from other: StackRow) -> Bool {
        var same = self
        same.baseStateID = other.baseStateID
        same.baseStateTag = other.baseStateTag
        same.clean = other.clean
        same.topIsMergeable = other.topIsMergeable
        return same == other
    }
}

/// Why the store failed, as one sentence.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public var description: String
    /// Whether the store itself is damaged (rather than, say, the disk full
    /// or busy): such a store is moved aside.
    public var isCorruption: Bool
    /// Whether the store cannot be opened for writing at all (a read-only
    /// file system, a directory the user may not write, a disk that fails
    /// as the store opens) or must not be written around (its journal):
    /// undod still runs, reading what it can and keeping changes in memory.
    public var isReadOnly: Bool
    /// Whether the store must be left exactly as it is (written by a newer
    /// undod, or a symbolic link in the store's place): undod then runs
    /// with history in memory only, and never touches it.
    public var isLeftAlone: Bool
    /// Makes an error.
    public init(_ description: String, corruption: Bool = false, readOnly: Bool = false, leftAlone: Bool = false) {
        self.description = description
        self.isCorruption = corruption
        self.isReadOnly = readOnly
        self.isLeftAlone = leftAlone
    }
}
