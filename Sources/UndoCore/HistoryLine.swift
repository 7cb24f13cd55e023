/// A stack's history as a line of states. The bottom state comes first;
/// each group of the undo side, oldest first, leads to the state after it,
/// up to the present state (the top undo group's); the redo side, farthest
/// first, leads on beyond the present. A state is named by the id of the
/// group just below it (the bottom state by `bottomID`), so ids rise along
/// the whole line and a group is found by its id in O(log n).
///
/// The line keeps what follows from groups coming and going: the bytes
/// each side holds as the limits count them, the bottom moving up when the
/// oldest group goes, and the clean state (`CleanState`), which can no
/// longer be reached once a group it lies beyond has gone.
struct HistoryLine: Sendable, Equatable {
    /// The undo side, oldest first: its last group is the next to undo.
    private(set) var undo = GroupDeque()
    /// The redo side, farthest first: its last group is the next to redo.
    private(set) var redo = GroupDeque()
    /// The bytes on the undo side, as the limits count them.
    private(set) var undoBytes: UInt64 = 0
    /// The bytes on the redo side, as the limits count them.
    private(set) var redoBytes: UInt64 = 0
    /// The name of the bottom state: 0, or the id of the last group trimmed
    /// off or cleared away below it.
    private(set) var bottomID: UInt64 = 0
    /// The state tag of the bottom state.
    private(set) var bottomTag: String
    /// Where the clean state is.
    private(set) var clean = CleanState.state(0)

    /// An empty line whose one state, clean, is tagged `bottomTag`.
    init(bottomTag: String) {
        self.bottomTag = bottomTag
    }

    /// The line a snapshot holds; its bytes must add up without overflow
    /// (see `StackSnapshot.check`).
    init(_ snapshot: StackSnapshot) {
        undo = GroupDeque(snapshot.undo)
        redo = GroupDeque(snapshot.redo.reversed())
        undoBytes = snapshot.undo.reduce(0) { $0 + $1.chargedBytes }
        redoBytes = snapshot.redo.reduce(0) { $0 + $1.chargedBytes }
        bottomID = snapshot.baseStateID
        bottomTag = snapshot.baseStateTag
        clean = snapshot.clean
    }

    /// The bytes on both sides.
    var bytes: UInt64 { undoBytes + redoBytes }

    /// The name of the present state.
    var presentID: UInt64 { undo.last?.id ?? bottomID }

    /// The state tag of the present state.
    var presentTag: String { undo.last?.stateTag ?? bottomTag }

    /// Whether the present state is the clean state.
    var isClean: Bool { clean == .state(presentID) }

    /// The next group to undo (`.undo`) or redo (`.redo`).
    func top(_ side: Direction) -> ActionGroup? {
        side == .undo ? undo.last : redo.last
    }

    /// Marks the present state clean.
    mutating func markClean() {
        clean = .state(presentID)
    }

    /// Drops every group: the present state, its name and tag kept, becomes
    /// the bottom state, and it is clean.
    mutating func clear() {
        bottomID = presentID
        bottomTag = presentTag
        undo.removeAll()
        redo.removeAll()
        undoBytes = 0
        redoBytes = 0
        clean = .state(bottomID)
    }

    /// Adds `group` on top of the undo side: the new present state.
    mutating func pushUndo(_ group: ActionGroup) {
        undo.append(group)
        undoBytes += group.chargedBytes
    }

    /// Changes the top undo group in place (its bytes counted again).
    mutating func updateTopUndo(_ body: (inout ActionGroup) -> Void) {
        let before = undo.last?.chargedBytes ?? 0
        undo.updateLast(body)
        undoBytes = undoBytes - before + (undo.last?.chargedBytes ?? 0)
    }

    /// Moves the top group of `side` onto the other side (an undo or redo
    /// applied); returns it.
    mutating func moveTop(from side: Direction) -> ActionGroup? {
        guard let group = removeTop(side) else { return nil }
        if side == .undo {
            redo.append(group)
            redoBytes += group.chargedBytes
        } else {
            pushUndo(group)
        }
        return group
    }

    /// Drops the oldest undo group: the state below it becomes unreachable,
    /// the state after it becomes the bottom. Returns its id.
    mutating func dropOldestUndo() -> UInt64? {
        guard let group = undo.removeFirst() else { return nil }
        undoBytes -= group.chargedBytes
        if clean == .state(bottomID) { clean = .unreachable }
        bottomID = group.id
        bottomTag = group.stateTag
        return group.id
    }

    /// Drops the redo group farthest from the present: the state after it
    /// becomes unreachable. Returns its id.
    mutating func dropFarthestRedo() -> UInt64? {
        guard let group = redo.removeFirst() else { return nil }
        redoBytes -= group.chargedBytes
        if clean == .state(group.id) { clean = .unreachable }
        return group.id
    }

    /// Empties the redo side (redo invalidation); a clean state on it becomes
    /// unreachable. Returns the ids discarded, nearest first.
    mutating func discardRedoSide() -> [UInt64] {
        guard !redo.isEmpty else { return [] }
        let ids = redo.elements.reversed().map(\.id)
        if case .state(let id) = clean, ids.contains(id) { clean = .unreachable }
        redo.removeAll()
        redoBytes = 0
        return ids
    }

    /// Drops the top group of `side`, which can never be applied; false when
    /// there is none. The document did not change, so the present state
    /// keeps its clean value and its state tag: a dropped undo group's tag
    /// passes to the group below it (or to the bottom state). A clean state
    /// on the far side of the dropped group can only be reached through it
    /// and becomes unreachable: any state below a dropped undo group, any
    /// state above a dropped redo group. States on the near side stay
    /// reachable.
    mutating func dropTopAsObsolete(_ side: Direction) -> Bool {
        switch side {
        case .undo:
            let wasClean = isClean
            guard let group = removeTop(.undo) else { return false }
            if undo.isEmpty {
                bottomTag = group.stateTag
            } else {
                updateTopUndo { $0.stateTag = group.stateTag }
            }
            if wasClean {
                clean = .state(presentID)
            } else if case .state(let id) = clean, id == bottomID || undo.elements.contains(where: { $0.id == id }) {
                clean = .unreachable
            }
        case .redo:
            if case .state(let id) = clean, redo.elements.contains(where: { $0.id == id }) {
                clean = .unreachable
            }
            guard removeTop(.redo) != nil else { return false }
        }
        return true
    }

    /// Removes the top group of `side`; returns it.
    private mutating func removeTop(_ side: Direction) -> ActionGroup? {
        if side == .undo {
            guard let group = undo.removeLast() else { return nil }
            undoBytes -= group.chargedBytes
            return group
        }
        guard let group = redo.removeLast() else { return nil }
        redoBytes -= group.chargedBytes
        return group
    }

    /// The group with `id` and the side it is on, or nil.
    func group(withID id: UInt64) -> (group: ActionGroup, side: Direction)? {
        if let position = undo.position(ofID: id, ascending: true) { return (undo[position], .undo) }
        if let position = redo.position(ofID: id, ascending: false) { return (redo[position], .redo) }
        return nil
    }

    /// Brings the actions of the unloaded group `id` into memory (see
    /// `ActionGroup.load`); false, changing nothing, when there is no such
    /// group or they do not add up to its bytes.
    mutating func loadActions(encoded: [UInt8], forGroup id: UInt64) -> Bool {
        var loaded = false
        if let position = undo.position(ofID: id, ascending: true) {
            undo.update(at: position) { loaded = $0.load(encoded: encoded) }
        } else if let position = redo.position(ofID: id, ascending: false) {
            redo.update(at: position) { loaded = $0.load(encoded: encoded) }
        }
        return loaded
    }

    /// Both sides, each top first, without payloads.
    var history: History {
        History(undo: undo.elements.reversed().map(\.historyItem), redo: redo.elements.reversed().map(\.historyItem))
    }

    /// The groups a global budget may drop, never the group in flight
    /// (the top of `inFlight`'s side).
    func evictable(sparing inFlight: Direction?) -> EvictableGroupBytes {
        EvictableGroupBytes(undo: undo.elements.dropLast(inFlight == .undo ? 1 : 0),
                            redo: redo.elements.dropLast(inFlight == .redo ? 1 : 0))
    }
}
