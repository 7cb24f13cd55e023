/// Every field of an `UndoStack` not in flight, for a store to save and
/// rebuild an identical stack with `UndoStack(restoring:)`.
public struct StackSnapshot: Sendable, Equatable {
    /// The stack's limits.
    public var settings: StackSettings
    /// The undo side from the bottom up: oldest first, next to undo last.
    public var undo: [ActionGroup]
    /// The redo side from the present outwards: next to redo first, farthest last.
    public var redo: [ActionGroup]
    /// The name of the bottom state (0, or the id of the last group trimmed off or cleared away below it).
    public var baseStateID: UInt64
    /// The state tag of the bottom state.
    public var baseStateTag: String
    /// Where the clean state is.
    public var clean: CleanState
    /// Whether a push may still merge into the top undo group.
    public var topIsMergeable: Bool

    /// A snapshot with the given fields.
    public init(
        settings: StackSettings, undo: [ActionGroup], redo: [ActionGroup], baseStateID: UInt64,
        baseStateTag: String, clean: CleanState, topIsMergeable: Bool
    ) {
        self.settings = settings
        self.undo = undo
        self.redo = redo
        self.baseStateID = baseStateID
        self.baseStateTag = baseStateTag
        self.clean = clean
        self.topIsMergeable = topIsMergeable
    }
}
