/// A named, ordered list of actions that is undone and redone as one unit
/// ("Typing", "Paste", "Delete 3 files").
public struct ActionGroup: Sendable, Equatable {
    /// The group's id: non-zero and unique across all stacks; kept when pushes merge into it.
    public let id: UInt64
    /// The name shown in menus and notifications; the latest merged push's name.
    public internal(set) var name: String
    /// The actions in the order they were done, kept as one buffer (see
    /// `ActionCoding`); empty while a store still holds them.
    public private(set) var encodedActions: [UInt8]
    /// When the group was pushed or last merged into, in µs since the Unix epoch.
    public internal(set) var time: Int64
    /// The merge key it was pushed with; `""` when it has none and never merges.
    public let mergeKey: String
    /// The application's tag of the document state this group leads to; `""` when never given.
    public internal(set) var stateTag: String
    /// The exact payload bytes the group holds: the sum of its actions' undo and redo byte counts.
    public private(set) var bytes: UInt64
    /// What the group counts for in the limits (`Bytes`, `MaxBytes`, the
    /// global budget): its actions' payload bytes, each at least 16.
    public private(set) var chargedBytes: UInt64

    /// A group with the given fields; its byte counts are computed from the
    /// actions, each charged at least `minimumActionBytes`.
    public init(
        id: UInt64, name: String, actions: [Action], time: Int64,
        mergeKey: String = "", stateTag: String = "", minimumActionBytes: UInt64 = Action.minimumChargedBytes
    ) {
        self.init(id: id, name: name, actions: EncodedActions(actions), time: time, mergeKey: mergeKey,
                  stateTag: stateTag, minimumActionBytes: minimumActionBytes)
    }

    /// A group with the given fields and actions already encoded; its byte
    /// counts are the actions', each charged at least `minimumActionBytes`.
    public init(
        id: UInt64, name: String, actions: EncodedActions, time: Int64,
        mergeKey: String = "", stateTag: String = "", minimumActionBytes: UInt64 = Action.minimumChargedBytes
    ) {
        self.id = id
        self.name = name
        self.encodedActions = actions.buffer
        self.time = time
        self.mergeKey = mergeKey
        self.stateTag = stateTag
        self.bytes = actions.bytes
        self.chargedBytes = actions.chargedBytes(minimum: minimumActionBytes)
    }

    /// A group restored from a store that keeps its actions on disk: its
    /// byte counts as stored, and no actions in memory until
    /// `UndoStack.loadActions(_:forGroup:)` brings them.
    public static func unloaded(
        id: UInt64, name: String, time: Int64, mergeKey: String = "", stateTag: String = "", bytes: UInt64,
        chargedBytes: UInt64
    ) -> ActionGroup {
        var group = ActionGroup(id: id, name: name, actions: [], time: time, mergeKey: mergeKey, stateTag: stateTag)
        group.bytes = bytes
        group.chargedBytes = chargedBytes
        return group
    }

    /// The actions in the order they were done (decoded from the buffer).
    public var actions: [Action] { ActionCoding.decode(encodedActions) ?? [] }

    /// Whether the actions are in memory. Every pushed group has at least one
    /// action, so a group without any is one whose actions a store still holds.
    public var isLoaded: Bool { !encodedActions.isEmpty }

    /// Puts a stored group's actions (as `ActionCoding` encodes them) in
    /// memory; they must add up to its bytes.
    mutating func load(encoded: [UInt8]) -> Bool {
        guard !isLoaded, !encoded.isEmpty, ActionCoding.payloadBytes(encoded) == bytes else { return false }
        encodedActions = encoded
        return true
    }

    /// Appends a merged push's actions and takes over its name, time and state tag.
    mutating func merge(name: String, actions more: EncodedActions, charged: UInt64, time: Int64, stateTag: String) {
        self.name = name
        encodedActions += more.buffer
        self.bytes += more.bytes
        self.chargedBytes += charged
        self.time = time
        self.stateTag = stateTag
    }

    /// The entry the narrow interface shows for this group.
    var historyItem: HistoryItem {
        HistoryItem(group: id, name: name, time: time, bytes: bytes)
    }

    /// An empty group that holds no memory, used to release a slot in storage.
    static let vacant = ActionGroup(id: 0, name: "", actions: [], time: 0)
}
