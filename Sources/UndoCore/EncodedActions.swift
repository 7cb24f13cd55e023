/// Actions as one `ActionCoding` buffer, checked, with the sums a push
/// needs. A `PushGroup` of 100,000 actions arrives as one buffer and stays
/// one, from the wire to the store: no value or array for each action.
public struct EncodedActions: Sendable, Equatable {
    /// The actions, laid out as `ActionCoding` says.
    public let buffer: [UInt8]
    /// How many actions the buffer holds.
    public let count: Int
    /// The undo payloads' bytes added up.
    public let undoBytes: UInt64
    /// The redo payloads' bytes added up.
    public let redoBytes: UInt64
    /// What they count for at the floor every stack uses
    /// (`Action.minimumChargedBytes`), counted in the same pass.
    private let chargedAtFloor: UInt64

    /// The actions, encoded.
    public init(_ actions: [Action]) {
        buffer = ActionCoding.encode(actions)
        count = actions.count
        undoBytes = actions.reduce(0) { $0 + UInt64($1.undo.count) }
        redoBytes = actions.reduce(0) { $0 + UInt64($1.redo.count) }
        chargedAtFloor = actions.reduce(0) { $0 + $1.chargedBytes() }
    }

    /// The actions of a buffer laid out as `ActionCoding` says; nil when it
    /// is not (a length that runs past the end, an undo without its redo).
    public init?(encoded buffer: [UInt8]) {
        var count = 0
        var undo: UInt64 = 0
        var redo: UInt64 = 0
        var charged: UInt64 = 0
        guard ActionCoding.forEachAction(in: buffer, { undoCount, redoCount in
            count += 1
            undo += UInt64(undoCount)
            redo += UInt64(redoCount)
            charged += max(UInt64(undoCount + redoCount), Action.minimumChargedBytes)
        }) else { return nil }
        self.buffer = buffer
        self.count = count
        self.undoBytes = undo
        self.redoBytes = redo
        self.chargedAtFloor = charged
    }

    /// The payload bytes the actions hold, undo and redo added.
    public var bytes: UInt64 { undoBytes + redoBytes }

    /// What the actions count for in the limits: each one's payload bytes,
    /// at least `minimum`.
    public func chargedBytes(minimum: UInt64 = Action.minimumChargedBytes) -> UInt64 {
        if minimum == Action.minimumChargedBytes { return chargedAtFloor }
        var charged: UInt64 = 0
        _ = ActionCoding.forEachAction(in: buffer) { undo, redo in
            charged += max(UInt64(undo) + UInt64(redo), minimum)
        }
        return charged
    }
}
