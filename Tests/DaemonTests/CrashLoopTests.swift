import BusHarness
import DBus
import Foundation
import Loop
import Rig
import Testing
import UndoCore

/// SIGKILL at random moments: every acknowledged operation survives, and
/// nothing else appears (at most the one in flight when undod died).
@Suite struct CrashLoopTests {
    /// One operation of the loop.
    enum Operation {
        case push(name: String, undo: [UInt8], redo: [UInt8], mergeKey: String)
        case undo, redo, setClean
    }

    /// What the stack looks like from outside, times left out.
    struct Observed: Equatable, CustomStringConvertible {
        var undo: [String]
        var redo: [String]
        var clean: Bool
        var description: String { "undo \(undo) redo \(redo) clean \(clean)" }
    }

    static func observed(_ stack: UndoStack) -> Observed {
        let entry = { (e: HistoryItem) in "\(e.group):\(e.name):\(e.bytes)" }
        return Observed(undo: stack.history.undo.map(entry), redo: stack.history.redo.map(entry), clean: stack.isClean)
    }

    static func observed(_ f: DaemonFixture, _ path: String) throws -> Observed {
        let history = try f.stack(path, "History")
        let side = { (value: DBusValue?) -> [String] in
            (value?.elements ?? []).compactMap(\.fields).map {
                "\($0[0].uint64 ?? 0):\($0[1].string ?? ""):\($0[3].uint64 ?? 0)"
            }
        }
        return Observed(undo: side(history.first), redo: side(history.last),
                        clean: try f.stackProperty(path, "Clean") == .bool(true))
    }

    func randomOperation(_ rng: inout SplitMix64, model: UndoStack) -> Operation {
        switch rng.below(10) {
        case 0...4:
            let size = rng.below(40)
            let undo = (0..<size).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            return .push(name: "g\(rng.below(1000))", undo: undo, redo: Array(undo.reversed()),
                         mergeKey: rng.below(3) == 0 ? "typing" : "")
        case 5, 6: return model.canUndo ? .undo : .setClean
        case 7, 8: return model.canRedo ? .redo : (model.canUndo ? .undo : .setClean)
        default: return .setClean
        }
    }

    /// Applies `operation` to the model as undod would, given the group id
    /// undod answered (or will answer) for a push.
    func apply(_ operation: Operation, to model: inout UndoStack, pushID: UInt64, now: Int64) throws {
        switch operation {
        case .push(let name, let undo, let redo, let mergeKey):
            var ids = GroupIDGenerator(next: pushID)
            try model.push(name: name, actions: [Action(undo: undo, redo: redo)],
                           hints: PushHints(mergeKey: mergeKey, mergeWindowMilliseconds: nil), now: now, ids: &ids)
        case .undo:
            _ = try model.beginUndo()
            model.commitInFlight()
        case .redo:
            _ = try model.beginRedo()
            model.commitInFlight()
        case .setClean:
            try model.setClean()
        }
    }

    func send(_ operation: Operation, _ f: DaemonFixture, _ app: TestApp) throws -> Answer {
        let stack = "org.undod.Undo1.Stack"
        switch operation {
        case .push(let name, let undo, let redo, let mergeKey):
            let hints: [String: DBusValue] = mergeKey.isEmpty ? [:] : ["merge_key": .string(mergeKey)]
            return try f.send(from: app.connection, app.stack, stack, "Push",
                              [.string(name), .bytes(undo), .bytes(redo), .vardict(hints)])
        case .undo: return try f.send(from: app.connection, app.stack, stack, "Undo")
        case .redo: return try f.send(from: app.connection, app.stack, stack, "Redo")
        case .setClean: return try f.send(from: app.connection, app.stack, stack, "SetClean")
        }
    }

    @Test func fiftyCrashesLoseNothingAcknowledged() throws {
        // UNDOD_SEED replays a failure.
        let seed = ProcessInfo.processInfo.environment["UNDOD_SEED"].flatMap(UInt64.init)
            ?? UInt64(Date().timeIntervalSince1970 * 1000)
        var rng = SplitMix64(seed: seed)
        // A long merge window, so merging depends on the model's rules, not on timing.
        let f = try DaemonFixture(config: "[merge]\nwindow_ms = 600000\n[limits]\nlevels = 0\n")
        let app = try f.app()
        try app.register("crash.app")
        let settings = StackSettings(levels: 0, maxBytes: 64 << 20, mergeWindowMilliseconds: 600_000)
        var model = UndoStack(settings: settings)
        var nextID: UInt64 = 1
        var now: Int64 = 0
        var killedInFlight = 0
        for round in 0..<50 {
            let context = "seed \(seed) round \(round)"
            for _ in 0..<(1 + rng.below(8)) {
                let operation = randomOperation(&rng, model: model)
                let answer = try send(operation, f, app)
                #expect(f.wait { answer.isDone }, "\(context)")
                guard answer.error == nil else {
                    Issue.record("\(context): \(operation) failed: \(String(describing: answer.error))")
                    return
                }
                if case .push = operation { nextID = answer.values?.first?.uint64 ?? nextID }
                now += 1
                try apply(operation, to: &model, pushID: nextID, now: now)
                if case .undo = operation {
                    let expected = app.applied.last?.payloads
                    #expect(expected == model.topRedoGroup?.actions.reversed().map(\.undo), "\(context): undo payloads")
                }
            }
            // One more operation in flight, and SIGKILL a few turns later.
            let before = Self.observed(model)
            let last = randomOperation(&rng, model: model)
            now += 1
            let answer = try send(last, f, app)
            for _ in 0..<rng.below(4) { f.loop.runTurn(maxWaitMilliseconds: 0) }
            try f.restart(crash: true)
            let acknowledged = answer.isDone && answer.error == nil
            try app.register("crash.app")
            let seen = try Self.observed(f, app.stack)
            // A push's id is known only from its answer, or from what came back
            // (ids are reserved ahead on disk, so a restart skips some).
            var pushID = answer.values?.first?.uint64 ?? nextID
            if case .push = last, !acknowledged, let top = seen.undo.first?.split(separator: ":").first {
                pushID = UInt64(top) ?? pushID
            }
            var after = model
            try apply(last, to: &after, pushID: pushID, now: now)
            if acknowledged {
                #expect(seen == Self.observed(after), "\(context): an acknowledged \(last) was lost")
            } else {
                #expect(seen == before || seen == Self.observed(after),
                        "\(context): after a crash during \(last): \(seen), expected \(before) or \(Self.observed(after))")
                killedInFlight += 1
            }
            if seen == Self.observed(after) { model = after }
        }
        // Most rounds kill with the last operation still unanswered.
        #expect(killedInFlight > 0, "seed \(seed): no round killed undod with an operation in flight")
    }
}
