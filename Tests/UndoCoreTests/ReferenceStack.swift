import UndoCore

/// A deliberately naive model of the spec, written differently from
/// `UndoStack`: one list of groups with an index into it (as QUndoStack
/// keeps it), the clean state as a position that shifts and falls off, and
/// every derived value (bytes, tags, documents) recomputed from scratch.
///
/// Each action inserts one token into the document on redo and removes it on
/// undo, so the document of every state is known from the groups below it.
struct ReferenceStack {
    struct Group: Equatable {
        var id: UInt64
        var name: String
        var time: Int64
        var key: String
        var tag: String
        var actions: [Action]

        var bytes: UInt64 { actions.reduce(0) { $0 + UInt64($1.undo.count + $1.redo.count) } }
        var tokens: Set<UInt32> { Set(actions.map { token(of: $0.redo) }) }
    }

    var settings: StackSettings
    /// All groups from the bottom out: `groups[..<index]` is the undo side, the rest the redo side.
    var groups: [Group] = []
    /// The present state's position: 0 is the bottom state, `i` the state after `groups[i - 1]`.
    var index = 0
    /// The clean state's position, or nil when it can no longer be reached.
    var cleanIndex: Int? = 0
    /// The bottom state's document and tag.
    var bottomDocument: Set<UInt32> = []
    var bottomTag = ""
    var inFlight: Direction?
    /// The group last pushed or merged into, and whether an undo, redo or obsolete drop came after.
    var lastPushed: UInt64?
    var movedSincePush = true
    var nextID: UInt64 = 1

    var bytes: UInt64 { groups.reduce(0) { $0 + $1.bytes } }
    var redoCount: Int { groups.count - index }

    func document(at position: Int) -> Set<UInt32> {
        groups[..<position].reduce(bottomDocument) { $0.union($1.tokens) }
    }

    func tag(at position: Int) -> String {
        position == 0 ? bottomTag : groups[position - 1].tag
    }

    var history: History {
        func entry(_ group: Group) -> HistoryItem {
            HistoryItem(group: group.id, name: group.name, time: group.time, bytes: group.bytes)
        }
        return History(undo: groups[..<index].reversed().map(entry), redo: groups[index...].map(entry))
    }

    var keepUndo: Int { inFlight == .undo ? 1 : 0 }
    var keepRedo: Int { inFlight == .redo ? 1 : 0 }

    var evictable: [UInt64] {
        groups[..<(index - keepUndo)].map(\.bytes) + groups[(index + keepRedo)...].reversed().map(\.bytes)
    }

    // MARK: Operations

    mutating func dropBottom() -> UInt64 {
        let group = groups.removeFirst()
        bottomDocument.formUnion(group.tokens)
        bottomTag = group.tag
        index -= 1
        if let clean = cleanIndex { cleanIndex = clean == 0 ? nil : clean - 1 }
        return group.id
    }

    mutating func dropFarEnd() -> UInt64 {
        if cleanIndex == groups.count { cleanIndex = nil }
        return groups.removeLast().id
    }

    func nameProblem(_ name: String) -> NameProblem? {
        if name.isEmpty { return .empty }
        let controls: [Unicode.GeneralCategory] = [.control, .lineSeparator, .paragraphSeparator]
        if name.unicodeScalars.contains(where: { controls.contains($0.properties.generalCategory) }) {
            return .controlCharacter
        }
        return name.unicodeScalars.count > 256 ? .tooLong(name.unicodeScalars.count) : nil
    }

    mutating func push(name: String, actions: [Action], hints: PushHints, now: Int64) -> Result<PushResult, UndoError> {
        if let inFlight { return .failure(.busy(inFlight)) }
        if let problem = nameProblem(name) { return .failure(.invalidName(problem)) }
        if actions.isEmpty { return .failure(.emptyGroup) }
        let window = Int64(hints.mergeWindowMilliseconds ?? settings.mergeWindowMilliseconds) * 1000
        var merging = false
        if index > 0, !hints.mergeKey.isEmpty {
            let top = groups[index - 1]
            merging = top.key == hints.mergeKey && top.id == lastPushed && !movedSincePush
                && cleanIndex != index && window > 0 && now >= top.time && now - top.time <= window
        }
        let newBytes = actions.reduce(UInt64(0)) { $0 + UInt64($1.undo.count + $1.redo.count) }
        let resulting = merging ? groups[index - 1].bytes + newBytes : newBytes
        if resulting > settings.maxBytes { return .failure(.payloadTooLarge(bytes: resulting, maxBytes: settings.maxBytes)) }

        let discarded = groups[index...].map(\.id)
        if let clean = cleanIndex, clean > index { cleanIndex = nil }
        groups.removeSubrange(index...)
        let id: UInt64
        if merging {
            groups[index - 1].actions += actions
            groups[index - 1].name = name
            groups[index - 1].time = now
            groups[index - 1].tag = hints.stateTag
            id = groups[index - 1].id
        } else {
            id = nextID
            nextID += 1
            groups.append(Group(id: id, name: name, time: now, key: hints.mergeKey, tag: hints.stateTag, actions: actions))
            index += 1
        }
        lastPushed = id
        movedSincePush = false
        var dropped: [UInt64] = []
        while index > 1, (settings.levels > 0 && index > Int(settings.levels)) || bytes > settings.maxBytes {
            dropped.append(dropBottom())
        }
        return .success(PushResult(group: id, merged: merging, discarded: discarded, dropped: dropped))
    }

    mutating func begin(_ direction: Direction) -> Result<StartedMove, UndoError> {
        if let inFlight { return .failure(.busy(inFlight)) }
        switch direction {
        case .undo:
            guard index > 0 else { return .failure(.nothingToUndo) }
            let group = groups[index - 1]
            inFlight = .undo
            return .success(StartedMove(direction: .undo, group: group.id, name: group.name, payloads: group.actions.reversed().map(\.undo)))
        case .redo:
            guard index < groups.count else { return .failure(.nothingToRedo) }
            let group = groups[index]
            inFlight = .redo
            return .success(StartedMove(direction: .redo, group: group.id, name: group.name, payloads: group.actions.map(\.redo)))
        }
    }

    var pending: PendingMove? {
        switch inFlight {
        case .undo: PendingMove(direction: .undo, group: groups[index - 1].id, name: groups[index - 1].name)
        case .redo: PendingMove(direction: .redo, group: groups[index].id, name: groups[index].name)
        case nil: nil
        }
    }

    mutating func commit() -> CompletedMove? {
        guard let move = pending else { return nil }
        inFlight = nil
        movedSincePush = true
        var dropped: [UInt64] = []
        if move.direction == .undo {
            index -= 1
        } else {
            index += 1
            while index > 1, settings.levels > 0, index > Int(settings.levels) { dropped.append(dropBottom()) }
        }
        return CompletedMove(direction: move.direction, group: move.group, name: move.name, dropped: dropped)
    }

    mutating func abort() -> PendingMove? {
        defer { inFlight = nil }
        return pending
    }

    mutating func obsolete() -> PendingMove? {
        guard let move = pending else { return nil }
        inFlight = nil
        movedSincePush = true
        if move.direction == .undo {
            let dropped = groups[index - 1]
            // The document keeps the dropped group's tokens, so every state does.
            bottomDocument.formUnion(dropped.tokens)
            if index - 1 == 0 { bottomTag = dropped.tag } else { groups[index - 2].tag = dropped.tag }
            if let clean = cleanIndex {
                cleanIndex = clean == index ? index - 1 : clean < index ? nil : clean - 1
            }
            groups.remove(at: index - 1)
            index -= 1
        } else {
            if let clean = cleanIndex, clean > index { cleanIndex = nil }
            groups.remove(at: index)
        }
        return move
    }

    mutating func setClean() -> UndoError? {
        if let inFlight { return .busy(inFlight) }
        cleanIndex = index
        return nil
    }

    mutating func clear() -> UndoError? {
        if let inFlight { return .busy(inFlight) }
        bottomDocument = document(at: index)
        bottomTag = tag(at: index)
        groups = []
        index = 0
        cleanIndex = 0
        movedSincePush = true
        return nil
    }

    mutating func setSettings(_ new: StackSettings) -> Result<[UInt64], UndoError> {
        if let inFlight { return .failure(.busy(inFlight)) }
        settings = new
        var dropped: [UInt64] = []
        while index > 0, (settings.levels > 0 && index > Int(settings.levels)) || bytes > settings.maxBytes {
            dropped.append(dropBottom())
        }
        while bytes > settings.maxBytes, redoCount > 0 { dropped.append(dropFarEnd()) }
        return .success(dropped)
    }

    mutating func dropOldest(_ count: Int) -> [UInt64] {
        var dropped: [UInt64] = []
        while dropped.count < count, index > keepUndo { dropped.append(dropBottom()) }
        while dropped.count < count, redoCount > keepRedo { dropped.append(dropFarEnd()) }
        return dropped
    }
}

/// The token an action's payload carries (bytes 1–4, little-endian).
func token(of payload: [UInt8]) -> UInt32 {
    payload[1...4].reversed().reduce(0) { $0 << 8 | UInt32($1) }
}
