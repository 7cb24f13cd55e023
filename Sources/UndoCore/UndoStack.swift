/// One application document's undo history: the undo side, the redo side,
/// the clean state and at most one group in flight to the application.
///
/// A value type: every mutating method either does all it says or throws and
/// leaves the stack exactly as it was (`==` to its old value). Time is passed
/// in (`now`, µs since the Unix epoch); the stack never reads a clock.
///
/// States are named by the id of the group just below them (see
/// `CleanState`), which stays true however the bottom is trimmed, so the
/// clean state is followed exactly through every operation.
public struct UndoStack: Sendable, Equatable {
    /// The limits the stack enforces; change them with `setSettings(_:)`.
    public internal(set) var settings: StackSettings
    /// The undo side, oldest first: its last group is the next to undo.
    var undoSide: GroupDeque
    /// The redo side, farthest first: its last group is the next to redo.
    var redoSide: GroupDeque
    /// The bytes on the undo side, as the limits count them.
    var undoBytes: UInt64
    /// The bytes on the redo side, as the limits count them.
    var redoBytes: UInt64
    /// The name of the bottom state (the state below the oldest undo group).
    public internal(set) var baseStateID: UInt64
    /// The state tag of the bottom state.
    public internal(set) var baseStateTag: String
    /// Where the clean state is.
    var clean: CleanState
    /// Whether a push may merge into the top undo group: true from a push
    /// until an undo or redo is committed (or the group is otherwise left).
    public internal(set) var topIsMergeable: Bool
    /// The direction of the group in flight, if any.
    var inFlightDirection: Direction?

    /// An empty, clean stack with these settings, its present (empty) state
    /// tagged `baseStateTag` (`""`: untagged).
    public init(settings: StackSettings = .defaults, baseStateTag: String = "") {
        self.settings = settings
        undoSide = GroupDeque()
        redoSide = GroupDeque()
        undoBytes = 0
        redoBytes = 0
        baseStateID = 0
        self.baseStateTag = baseStateTag
        clean = .state(0)
        topIsMergeable = false
        inFlightDirection = nil
    }

    // MARK: Reading

    /// Whether there is a group to undo (`CanUndo`).
    public var canUndo: Bool { !undoSide.isEmpty }

    /// Whether there is a group to redo (`CanRedo`).
    public var canRedo: Bool { !redoSide.isEmpty }

    /// The name of the next group to undo, `""` when none (`UndoName`).
    public var undoName: String { undoSide.last?.name ?? "" }

    /// The name of the next group to redo, `""` when none (`RedoName`).
    public var redoName: String { redoSide.last?.name ?? "" }

    /// How many groups can be undone (`UndoDepth`).
    public var undoDepth: Int { undoSide.count }

    /// How many groups can be redone (`RedoDepth`).
    public var redoDepth: Int { redoSide.count }

    /// The bytes held as the limits count them, both sides together
    /// (`Bytes`): each action its payload bytes, at least 16.
    public var bytes: UInt64 { undoBytes + redoBytes }

    /// The name of the state the stack is in: the top undo group's id, or the base id when the undo side is empty.
    public var presentStateID: UInt64 { undoSide.last?.id ?? baseStateID }

    /// The state tag of the state the stack is in; `""` for a state never tagged.
    public var presentStateTag: String { undoSide.last?.stateTag ?? baseStateTag }

    /// Whether the stack is in the state where `setClean` was last called, or
    /// in its empty state before any (`Clean`).
    public var isClean: Bool { clean == .state(presentStateID) }

    /// Where the clean state is.
    public var cleanState: CleanState { clean }

    /// The group in flight to the application, if any.
    public var inFlight: PendingMove? {
        switch inFlightDirection {
        case .undo: undoSide.last.map { PendingMove(direction: .undo, group: $0.id, name: $0.name) }
        case .redo: redoSide.last.map { PendingMove(direction: .redo, group: $0.id, name: $0.name) }
        case nil: nil
        }
    }

    /// The next group to undo, with its payloads (for the owner and the store only).
    public var topUndoGroup: ActionGroup? { undoSide.last }

    /// The next group to redo, with its payloads (for the owner and the store only).
    public var topRedoGroup: ActionGroup? { redoSide.last }

    /// Whether the top group of `side` is there with its payloads in memory
    /// (true when the side is empty: nothing to load), asked without
    /// copying the group.
    public func topIsLoaded(_ side: Direction) -> Bool {
        side == .undo ? undoSide.lastIsLoaded : redoSide.lastIsLoaded
    }

    /// The narrow view of both sides, each top first, without payloads (`History`).
    public var history: History {
        History(
            undo: undoSide.elements.reversed().map(\.historyItem),
            redo: redoSide.elements.reversed().map(\.historyItem))
    }

    /// The payload sizes of the groups a global budget may drop, in the order
    /// `dropOldest(_:)` drops them. It shares the stack's storage, so let it
    /// go before changing the stack, or the change copies the storage.
    public var evictableGroupBytes: EvictableGroupBytes {
        EvictableGroupBytes(
            undo: undoSide.elements.dropLast(inFlightDirection == .undo ? 1 : 0),
            redo: redoSide.elements.dropLast(inFlightDirection == .redo ? 1 : 0))
    }

    // MARK: Shared steps

    /// Throws `busy` when a group is in flight.
    func refuseWhileInFlight() throws(UndoError) {
        if let direction = inFlightDirection { throw .busy(direction) }
    }

    /// Drops the oldest undo group: the state below it becomes unreachable,
    /// the state after it becomes the bottom. Returns its id.
    mutating func dropOldestUndo() -> UInt64? {
        guard let group = undoSide.removeFirst() else { return nil }
        undoBytes -= group.chargedBytes
        if clean == .state(baseStateID) { clean = .unreachable }
        baseStateID = group.id
        baseStateTag = group.stateTag
        if undoSide.isEmpty { topIsMergeable = false }
        return group.id
    }

    /// Drops the redo group farthest from the present: the state after it becomes unreachable. Returns its id.
    mutating func dropFarthestRedo() -> UInt64? {
        guard let group = redoSide.removeFirst() else { return nil }
        redoBytes -= group.chargedBytes
        if clean == .state(group.id) { clean = .unreachable }
        return group.id
    }

    /// Drops the oldest undo groups, never the top `keeping` ones, while the
    /// undo side is over the level limit or the stack over its byte limit.
    /// Returns their ids, oldest first.
    mutating func trimUndoSide(keeping: Int) -> [UInt64] {
        var dropped: [UInt64] = []
        while undoSide.count > keeping,
            (settings.levels > 0 && undoSide.count > Int(settings.levels)) || bytes > settings.maxBytes,
            let id = dropOldestUndo()
        {
            dropped.append(id)
        }
        return dropped
    }
}
