import UndoCore

/// An action of `bytes` payload bytes (undo half, redo the rest), with a
/// marker byte so that different actions differ.
func action(_ marker: UInt8, bytes: Int = 2) -> Action {
    let undoCount = bytes / 2
    return Action(undo: Array(repeating: marker, count: undoCount), redo: Array(repeating: marker &+ 1, count: bytes - undoCount))
}

/// A stack with its id source and clock, driven the way the daemon drives it.
struct Harness {
    /// The stack under test.
    var stack: UndoStack
    /// The shared id source.
    var ids = GroupIDGenerator()
    /// The time passed as `now`.
    var clock = ManualClock(now: 1_700_000_000_000_000)
    /// Used to make each pushed action different.
    var marker: UInt8 = 0

    init(_ settings: StackSettings = .exact) {
        stack = UndoStack(settings: settings)
    }

    /// Pushes one action of `bytes` bytes (or `actions` actions of that size each).
    @discardableResult
    mutating func push(
        _ name: String, key: String = "", tag: String = "", bytes: Int = 2, actions: Int = 1, window: UInt32? = nil
    ) throws(UndoError) -> PushResult {
        var list: [Action] = []
        for _ in 0..<actions {
            marker &+= 2
            list.append(action(marker, bytes: bytes))
        }
        return try stack.push(
            name: name, actions: list, hints: PushHints(mergeKey: key, mergeWindowMilliseconds: window, stateTag: tag),
            now: clock.now, ids: &ids)
    }

    /// A whole undo the owner applies at once.
    @discardableResult
    mutating func undo() throws(UndoError) -> CompletedMove? {
        _ = try stack.beginUndo()
        return stack.commitInFlight()
    }

    /// A whole redo the owner applies at once.
    @discardableResult
    mutating func redo() throws(UndoError) -> CompletedMove? {
        _ = try stack.beginRedo()
        return stack.commitInFlight()
    }

    /// Advances the clock.
    mutating func wait(_ milliseconds: Int64) {
        clock.advance(milliseconds: milliseconds)
    }

    /// The undo side's names, top first.
    var undoNames: [String] { stack.history.undo.map(\.name) }

    /// The redo side's names, top first.
    var redoNames: [String] { stack.history.redo.map(\.name) }
}

/// Runs `body` and returns the `UndoError` it threw, or `nil` when it returned.
func undoError<T>(_ body: () throws(UndoError) -> T) -> UndoError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

extension StackSettings {
    /// The defaults, with every action counted as its payload bytes alone:
    /// these tests count small payloads byte by byte. The 16-byte floor the
    /// daemon uses has tests of its own (`ChargedBytesTests`).
    static let exact = StackSettings(levels: 100, maxBytes: 64 << 20, mergeWindowMilliseconds: 1000,
                                     minimumActionBytes: 0)
}

extension Harness {
    /// "a", "b" and "c" pushed, then two undone: "a" on the undo side,
    /// "b" and "c" on the redo side.
    static func abcWithTwoUndone() throws -> Harness {
        var harness = Harness()
        for name in ["a", "b", "c"] { try harness.push(name) }
        try harness.undo()
        try harness.undo()
        return harness
    }
}
