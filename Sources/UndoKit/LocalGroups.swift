/// The groups an `UndoManager` keeps in its own process, by token: their
/// names and closures, on the undo side and the redo side, oldest first.
/// undod holds the same groups by the tokens their payloads carry; the
/// closures live only here.
struct LocalGroups {
    /// One group's closures and what undod calls it.
    struct Entry {
        var name: String
        var undo: [@MainActor () -> Void]
        var redo: [@MainActor () -> Void]
        /// undod's id of the group, once its push was answered.
        var group: UInt64?
    }

    private var entries: [UInt64: Entry] = [:]
    /// The undo side's tokens, oldest first.
    private(set) var undo: [UInt64] = []
    /// The redo side's tokens, the next to redo last.
    private(set) var redo: [UInt64] = []

    /// The group `token`, while it is kept.
    subscript(token: UInt64) -> Entry? {
        get { entries[token] }
        set { entries[token] = newValue }
    }

    /// The name of the next group to undo ("" for none).
    var undoName: String { undo.last.flatMap { entries[$0]?.name } ?? "" }
    /// The name of the next group to redo ("" for none).
    var redoName: String { redo.last.flatMap { entries[$0]?.name } ?? "" }
    /// Whether a group on the redo side has closures to redo.
    var canRedo: Bool { redo.contains { !(entries[$0]?.redo.isEmpty ?? true) } }

    /// Adds a closed group on top of the undo side; the redo side ends.
    mutating func push(_ token: UInt64, _ entry: Entry) {
        entries[token] = entry
        dropRedo()
        undo.append(token)
    }

    /// Forgets the redo side (a new change ends it).
    mutating func dropRedo() {
        for token in redo { entries[token] = nil }
        redo.removeAll()
    }

    /// Forgets the `count` oldest groups of the undo side.
    mutating func dropOldest(_ count: Int) {
        for token in undo.prefix(count) { entries[token] = nil }
        undo.removeFirst(min(count, undo.count))
    }

    /// Forgets `token` (undod did not take it).
    mutating func remove(_ token: UInt64) {
        entries[token] = nil
        undo.removeAll { $0 == token }
        redo.removeAll { $0 == token }
    }

    /// Forgets every group.
    mutating func removeAll() {
        entries.removeAll()
        undo.removeAll()
        redo.removeAll()
    }

    /// Whether undod's undo of `token` is the one this side expects: on the
    /// undo side, with only groups undod has not answered yet above it.
    func mayUndo(_ token: UInt64) -> Bool {
        guard let index = undo.lastIndex(of: token) else { return false }
        return undo[(index + 1)...].allSatisfy { entries[$0]?.group == nil }
    }

    /// Whether undod's redo of `token` is the one this side expects: the
    /// next to redo, with closures to run.
    func mayRedo(_ token: UInt64) -> Bool {
        redo.last == token && !(entries[token]?.redo.isEmpty ?? true)
    }

    /// `token` was undone: its redo is what it registered meanwhile, and it
    /// is the next to redo.
    mutating func undone(_ token: UInt64, registered: [@MainActor () -> Void]) {
        entries[token]?.redo = registered
        undo.removeAll { $0 == token }
        redo.append(token)
    }

    /// `token` was redone: its undo is what it registered meanwhile, and it
    /// is the next to undo.
    mutating func redone(_ token: UInt64, registered: [@MainActor () -> Void]) {
        entries[token]?.undo = registered
        redo.removeAll { $0 == token }
        undo.append(token)
    }

    /// Keeps, of the groups undod has answered, those still on the same
    /// side in undod (`undoIDs`, `redoIDs`); false when nothing changed.
    mutating func keep(undoIDs: Set<UInt64>, redoIDs: Set<UInt64>) -> Bool {
        let keptUndo = undo.filter { entries[$0]?.group.map(undoIDs.contains) ?? true }
        let keptRedo = redo.filter { entries[$0]?.group.map(redoIDs.contains) ?? true }
        guard keptUndo != undo || keptRedo != redo else { return false }
        for token in Set(undo + redo).subtracting(keptUndo + keptRedo) { entries[token] = nil }
        undo = keptUndo
        redo = keptRedo
        return true
    }
}
