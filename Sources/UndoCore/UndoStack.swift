/// One application document's undo history: the undo side, the redo side,
/// the clean state and at most one group in flight to the application.
///
/// A value type: every mutating method either does all it says or throws and
/// leaves the stack exactly as it was (`==` to its old value). Time is passed
/// in (`now`, µs since the Unix epoch); the stack never reads a clock.
///
/// States are named by the id of the group just below them (see
/// `HistoryLine`, `CleanState`), which stays true however the bottom is
/// trimmed, so the clean state is followed exactly through every operation.
public struct UndoStack: Sendable, Equatable {
    /// The limits the stack enforces; change them with `setSettings(_:)`.
    public internal(set) var settings: StackSettings
    /// The groups on both sides, the states they lead through, the clean one.
    var line: HistoryLine
    /// Whether a push may merge into the top undo group: true from a push
    /// until an undo or redo is committed (or the group is otherwise left).
    public internal(set) var topIsMergeable: Bool
    /// The direction of the group in flight, if any.
    var inFlightDirection: Direction?

    /// An empty, clean stack with these settings, its present (empty) state
    /// tagged `baseStateTag` (`""`: untagged).
    public init(settings: StackSettings = .defaults, baseStateTag: String = "") {
        self.settings = settings
        line = HistoryLine(bottomTag: baseStateTag)
        topIsMergeable = false
        inFlightDirection = nil
    }

    // MARK: Reading

    /// Whether there is a group to undo (`CanUndo`).
    public var canUndo: Bool { !line.undo.isEmpty }

    /// Whether there is a group to redo (`CanRedo`).
    public var canRedo: Bool { !line.redo.isEmpty }

    /// The name of the next group to undo, `""` when none (`UndoName`).
    public var undoName: String { line.undo.last?.name ?? "" }

    /// The name of the next group to redo, `""` when none (`RedoName`).
    public var redoName: String { line.redo.last?.name ?? "" }

    /// How many groups can be undone (`UndoDepth`).
    public var undoDepth: Int { line.undo.count }

    /// How many groups can be redone (`RedoDepth`).
    public var redoDepth: Int { line.redo.count }

    /// The bytes held as the limits count them, both sides together
    /// (`Bytes`): each action its payload bytes, at least 16.
    public var bytes: UInt64 { line.bytes }

    /// The name of the state the stack is in: the top undo group's id, or the base id when the undo side is empty.
    public var presentStateID: UInt64 { line.presentID }

    /// The state tag of the state the stack is in; `""` for a state never tagged.
    public var presentStateTag: String { line.presentTag }

    /// The name of the bottom state (the state below the oldest undo group).
    public var baseStateID: UInt64 { line.bottomID }

    /// The state tag of the bottom state.
    public var baseStateTag: String { line.bottomTag }

    /// Whether the stack is in the state where `setClean` was last called, or
    /// in its empty state before any (`Clean`).
    public var isClean: Bool { line.isClean }

    /// Where the clean state is.
    public var cleanState: CleanState { line.clean }

    /// The group in flight to the application, if any.
    public var inFlight: PendingMove? {
        inFlightDirection.flatMap { side in
            line.top(side).map { PendingMove(direction: side, group: $0.id, name: $0.name) }
        }
    }

    /// The next group to undo, with its payloads (for the owner and the store only).
    public var topUndoGroup: ActionGroup? { line.undo.last }

    /// The next group to redo, with its payloads (for the owner and the store only).
    public var topRedoGroup: ActionGroup? { line.redo.last }

    /// Whether the top group of `side` is there with its payloads in memory
    /// (true when the side is empty: nothing to load), asked without
    /// copying the group.
    public func topIsLoaded(_ side: Direction) -> Bool {
        side == .undo ? line.undo.lastIsLoaded : line.redo.lastIsLoaded
    }

    /// The narrow view of both sides, each top first, without payloads (`History`).
    public var history: History { line.history }

    /// The payload sizes of the groups a global budget may drop, in the order
    /// `dropOldest(_:)` drops them. It shares the stack's storage, so let it
    /// go before changing the stack, or the change copies the storage.
    public var evictableGroupBytes: EvictableGroupBytes { line.evictable(sparing: inFlightDirection) }

    // MARK: Shared steps

    /// Throws `busy` when a group is in flight.
    func refuseWhileInFlight() throws(UndoError) {
        if let direction = inFlightDirection { throw .busy(direction) }
    }

    /// Drops the oldest undo group (`HistoryLine.dropOldestUndo`); with it
    /// the last, nothing is left to merge into. Returns its id.
    mutating func dropOldestUndo() -> UInt64? {
        guard let id = line.dropOldestUndo() else { return nil }
        if line.undo.isEmpty { topIsMergeable = false }
        return id
    }

    /// Drops the oldest undo groups, never the top `keeping` ones, while the
    /// undo side is over the level limit or the stack over its byte limit.
    /// Returns their ids, oldest first.
    mutating func trimUndoSide(keeping: Int) -> [UInt64] {
        var dropped: [UInt64] = []
        while line.undo.count > keeping,
            (settings.levels > 0 && line.undo.count > Int(settings.levels)) || bytes > settings.maxBytes,
            let id = dropOldestUndo()
        {
            dropped.append(id)
        }
        return dropped
    }
}
