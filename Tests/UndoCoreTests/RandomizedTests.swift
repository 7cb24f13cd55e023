import Rig
import Testing
import UndoCore

/// One random sequence of operations, run on an `UndoStack` and on the
/// `ReferenceStack` side by side and compared after every step. The "app"
/// applies the payloads it is handed to its own document, which must always
/// be the reference's document of the present state.
struct RandomRun {
    let seed: UInt64
    var random: SplitMix64
    var real: UndoStack
    var reference: ReferenceStack
    var ids = GroupIDGenerator()
    var now: Int64 = 1_700_000_000_000_000
    var document: Set<UInt32> = []
    var nextToken: UInt32 = 1
    var step = 0
    var failure: String?
    /// How often each interesting event happened, to show the sequences reach them.
    var events: [String: Int] = [:]

    init(seed: UInt64) {
        self.seed = seed
        random = SplitMix64(seed: seed)
        let settings = Self.randomSettings(&random)
        real = UndoStack(settings: settings)
        reference = ReferenceStack(settings: settings)
    }

    static func randomSettings(_ random: inout SplitMix64) -> StackSettings {
        StackSettings(
            levels: random.pick([0, 1, 2, 3, 5, 8]),
            maxBytes: random.pick([25, 40, 60, 120, 1000, .max]),
            mergeWindowMilliseconds: random.pick([0, 1, 5, 1000]), minimumActionBytes: 0)
    }

    /// Records the first mismatch, with the seed and step to replay it.
    mutating func check(_ condition: Bool, _ what: @autoclosure () -> String) {
        if !condition, failure == nil { failure = "seed 0x\(String(seed, radix: 16)) step \(step): \(what())" }
    }

    mutating func same<T: Equatable>(_ real: T, _ expected: T, _ what: String) {
        check(real == expected, "\(what): stack \(real), reference \(expected)")
    }

    func result<T>(_ body: () throws(UndoError) -> T) -> Result<T, UndoError> {
        do { return .success(try body()) } catch { return .failure(error) }
    }

    mutating func randomActions() -> [Action] {
        let count = random.chance(3) ? 0 : 1 + random.below(3)
        return (0..<count).map { _ in
            let token = withUnsafeBytes(of: nextToken.littleEndian, Array.init)
            nextToken += 1
            let undoPad = [UInt8](repeating: 0, count: random.below(5))
            let redoPad = [UInt8](repeating: 0, count: random.below(5))
            return Action(undo: [0x55] + token + undoPad, redo: [0xAA] + token + redoPad)
        }
    }

    mutating func randomName() -> String {
        random.chance(3)
            ? random.pick(["", "bad\tname", String(repeating: "x", count: 257)])
            : random.pick(["a", "b", "Typing", "Paste"])
    }

    mutating func randomHints() -> PushHints {
        PushHints(
            mergeKey: random.pick(["", "k", "k", "k", "j"]),
            mergeWindowMilliseconds: random.chance(20) ? random.pick([0, 2, 1000, 5000]) : nil,
            stateTag: random.chance(50) ? "" : "T\(nextToken)")
    }

    /// Applies payloads to the app's document as a real owner would.
    mutating func apply(_ request: StartedMove) {
        for payload in request.payloads {
            let token = token(of: payload)
            if request.direction == .undo {
                check(payload[0] == 0x55 && document.remove(token) != nil, "undo payload for absent token \(token)")
            } else {
                check(payload[0] == 0xAA && document.insert(token).inserted, "redo payload for present token \(token)")
            }
        }
    }

    mutating func push() {
        let name = randomName()
        let actions = randomActions()
        let hints = randomHints()
        let got = result { () throws(UndoError) in try real.push(name: name, actions: actions, hints: hints, now: now, ids: &ids) }
        let expected = reference.push(name: name, actions: actions, hints: hints, now: now)
        same(got, expected, "push")
        // The app made the change before pushing it.
        switch got {
        case .success(let pushed):
            document.formUnion(actions.map { token(of: $0.redo) })
            if pushed.merged { events["merge", default: 0] += 1 }
            if !pushed.discarded.isEmpty { events["redo discarded", default: 0] += 1 }
            if !pushed.dropped.isEmpty { events["trimmed by a push", default: 0] += 1 }
        case .failure(let error):
            events[error.name, default: 0] += 1
        }
    }

    mutating func begin(_ direction: Direction) {
        let got = result { () throws(UndoError) in try direction == .undo ? real.beginUndo() : real.beginRedo() }
        let expected = reference.begin(direction)
        same(got, expected, "begin \(direction)")
        if case .failure(let error) = got { events[error.name, default: 0] += 1 }
    }

    mutating func commit() {
        if let move = real.inFlight, let request = reference.pending {
            let group = (move.direction == .undo ? real.topUndoGroup : real.topRedoGroup)
            let payloads = move.direction == .undo
                ? group?.actions.reversed().map(\.undo) : group?.actions.map(\.redo)
            apply(StartedMove(direction: move.direction, group: request.group, name: request.name, payloads: payloads ?? []))
        }
        let got = real.commitInFlight()
        let expected = reference.commit()
        if let got { events[got.dropped.isEmpty ? "commit \(got.direction)" : "trimmed by a redo", default: 0] += 1 }
        same(got, expected, "commit")
    }

    mutating func setClean() {
        let got = undoError { () throws(UndoError) in try real.setClean() }
        let expected = reference.setClean()
        same(got, expected, "setClean")
    }

    mutating func clear() {
        let got = undoError { () throws(UndoError) in try real.clear() }
        let expected = reference.clear()
        same(got, expected, "clear")
    }

    mutating func setSettings() {
        var settings = Self.randomSettings(&random)
        // Often lower the level limit to just the undo depth, so that a later redo goes over it.
        if real.canRedo, real.canUndo, random.chance(50) {
            settings.levels = UInt32(real.undoDepth)
            settings.maxBytes = real.settings.maxBytes
        }
        let got = result { () throws(UndoError) in try real.setSettings(settings) }
        let expected = reference.setSettings(settings)
        same(got, expected, "setSettings")
    }

    mutating func dropOldest() {
        let count = random.below(4)
        let got = real.dropOldest(count)
        let expected = reference.dropOldest(count)
        same(got, expected, "dropOldest")
    }

    mutating func abort() {
        let got = real.abortInFlight()
        let expected = reference.abort()
        same(got, expected, "abort")
    }

    mutating func obsolete() {
        let got = real.dropInFlightAsObsolete()
        let expected = reference.obsolete()
        if let got { events["obsolete \(got.direction)", default: 0] += 1 }
        same(got, expected, "obsolete")
    }

    mutating func snapshotRoundTrip() {
        var expected = real
        expected.abortInFlight()
        do {
            let restored = try UndoStack(restoring: real.snapshot)
            check(restored == expected, "snapshot round trip differs")
        } catch {
            check(false, "snapshot refused: \(error)")
        }
    }

    mutating func operate() {
        now += random.pick([0, 0, 1, 1000, 2000, 5000, 500_000, 1_000_000, 1_000_001])
        if real.inFlight == nil {
            // Redo is favoured while there is something to redo, so that redo paths get as much use as undo.
            let weights = [30, 17, real.canRedo ? 25 : 5, 8, 2, 8, 5, 3, 1]
            switch random.weighted(weights) {
            case 0: push()
            case 1: begin(.undo)
            case 2: begin(.redo)
            case 3: setClean()
            case 4: clear()
            case 5: setSettings()
            case 6: dropOldest()
            case 7: snapshotRoundTrip()
            default: commit()  // nothing in flight: both answer nil
            }
        } else {
            switch random.below(100) {
            case 0..<40: commit()
            case 40..<55: abort()
            case 55..<67: obsolete()
            case 67..<75: push()
            case 75..<80: begin(random.chance(50) ? .undo : .redo)
            case 80..<83: setClean()
            case 83..<85: clear()
            case 85..<88: setSettings()
            case 88..<95: dropOldest()
            default: snapshotRoundTrip()
            }
        }
    }

    mutating func compare() {
        same(real.canUndo, reference.index > 0, "canUndo")
        same(real.canRedo, reference.redoCount > 0, "canRedo")
        same(real.undoDepth, reference.index, "undoDepth")
        same(real.redoDepth, reference.redoCount, "redoDepth")
        same(real.undoName, reference.index > 0 ? reference.groups[reference.index - 1].name : "", "undoName")
        same(real.redoName, reference.redoCount > 0 ? reference.groups[reference.index].name : "", "redoName")
        same(real.bytes, reference.bytes, "bytes")
        same(real.isClean, reference.cleanIndex == reference.index, "isClean")
        same(real.presentStateTag, reference.tag(at: reference.index), "presentStateTag")
        same(real.history, reference.history, "history")
        same(real.inFlight, reference.pending, "inFlight")
        same(Array(real.evictableGroupBytes), reference.evictable, "evictableGroupBytes")
        same(document, reference.document(at: reference.index), "document")
        let settings = real.settings
        check(settings.levels == 0 || real.undoDepth <= Int(settings.levels), "undo depth over the level limit")
        check(real.bytes <= settings.maxBytes, "bytes over the byte limit")
        switch (reference.cleanIndex, real.cleanState) {
        case (nil, .unreachable): break
        case (let position?, .state(let id)) where position > 0:
            same(id, reference.groups[position - 1].id, "clean state")
        case (0, .state(let id)):
            check(!reference.groups.contains { $0.id == id }, "clean bottom state named by a live group \(id)")
        default:
            let text = "clean state: stack \(real.cleanState), reference position \(String(describing: reference.cleanIndex))"
            check(false, text)
        }
    }

    /// Runs `steps` random operations; returns the first mismatch, if any.
    mutating func run(steps: Int) -> String? {
        compare()
        while step < steps, failure == nil {
            step += 1
            let wasReachable = real.cleanState != .unreachable
            let wasClean = real.isClean
            operate()
            compare()
            if wasReachable, real.cleanState == .unreachable { events["clean lost", default: 0] += 1 }
            if !wasClean, real.isClean { events["clean regained", default: 0] += 1 }
        }
        return failure
    }
}

@Suite("Randomised comparison with a naive reference model")
struct RandomizedTests {
    static let batches = 6
    static let sequencesPerBatch = 1000

    /// How often each event must happen in every batch, or the sequences are too tame.
    static let expectedEvents = [
        "merge": 100, "redo discarded": 100, "trimmed by a push": 100, "trimmed by a redo": 1, "commit undo": 100,
        "commit redo": 100, "obsolete undo": 100, "obsolete redo": 50, "clean lost": 100, "clean regained": 100,
        "Busy": 100, "NothingToUndo": 100, "NothingToRedo": 100, "InvalidName": 100, "EmptyGroup": 100,
        "PayloadTooLarge": 100,
    ]

    @Test("random sequences behave like the reference model step by step", arguments: 0..<batches)
    func randomSequences(batch: Int) {
        var steps = 0
        var events: [String: Int] = [:]
        for index in 0..<Self.sequencesPerBatch {
            let seed = 0x756E_646F_6400_0000 &+ UInt64(batch * Self.sequencesPerBatch + index)
            var run = RandomRun(seed: seed)
            let length = 20 + Int(seed % 41)
            if let failure = run.run(steps: length) {
                Issue.record(Comment(rawValue: failure))
                return
            }
            steps += run.step
            events.merge(run.events, uniquingKeysWith: +)
        }
        #expect(steps >= Self.sequencesPerBatch * 20)
        for (event, minimum) in Self.expectedEvents {
            #expect(events[event, default: 0] >= minimum, "\(event) happened only \(events[event, default: 0]) times")
        }
    }
}
