/// How a group keeps its actions: one buffer, each action's undo payload
/// then its redo payload, each preceded by its length (4 bytes, little-
/// endian). One allocation a group whatever its actions, and the very bytes a
/// store writes and reads back.
public enum ActionCoding {
    /// The buffer for `actions`.
    public static func encode(_ actions: [Action]) -> [UInt8] {
        var buffer: [UInt8] = []
        append(actions, to: &buffer)
        return buffer
    }

    /// Appends `actions` to a buffer.
    private static func append(_ actions: [Action], to buffer: inout [UInt8]) {
        buffer.reserveCapacity(buffer.count + actions.reduce(0) { $0 + 8 + $1.undo.count + $1.redo.count })
        for action in actions {
            appendPayload(action.undo, to: &buffer)
            appendPayload(action.redo, to: &buffer)
        }
    }

    /// The actions in `buffer`, or nil when it is not one `encode` made.
    public static func decode(_ buffer: [UInt8]) -> [Action]? {
        var actions: [Action] = []
        var offset = 0
        while offset < buffer.count {
            guard let undo = payloadRange(buffer, &offset), let redo = payloadRange(buffer, &offset) else { return nil }
            actions.append(Action(undo: Array(buffer[undo]), redo: Array(buffer[redo])))
        }
        return actions
    }

    /// The payload bytes `buffer` holds (undo and redo together), or nil when
    /// it is not one `encode` made.
    public static func payloadBytes(_ buffer: [UInt8]) -> UInt64? {
        EncodedActions(encoded: buffer)?.bytes
    }

    /// Calls `body` with each action's undo and redo payload sizes, in order;
    /// false when the buffer is not one `encode` made (it may have been
    /// called for the actions before the fault). One tight pass: a
    /// `PushGroup` of 100,000 actions is walked this way on every push.
    @inline(__always)
    static func forEachAction(in buffer: [UInt8], _ body: (_ undo: Int, _ redo: Int) -> Void) -> Bool {
        var offset = 0
        let end = buffer.count
        while offset < end {
            guard end - offset >= 8 else { return false }
            let undo = length(buffer, at: offset)
            guard end - offset - 8 >= undo else { return false }
            let redo = length(buffer, at: offset + 4 + undo)
            offset += 8 + undo
            guard end - offset >= redo else { return false }
            offset += redo
            body(undo, redo)
        }
        return true
    }

    /// The payloads of one direction, in the order `Apply` sends them: undo
    /// payloads last action first, redo payloads first action first.
    static func payloads(_ buffer: [UInt8], for direction: Direction) -> [[UInt8]] {
        var undo: [[UInt8]] = []
        var redo: [[UInt8]] = []
        var offset = 0
        while offset < buffer.count {
            guard let u = payloadRange(buffer, &offset), let r = payloadRange(buffer, &offset) else { break }
            if direction == .undo { undo.append(Array(buffer[u])) } else { redo.append(Array(buffer[r])) }
        }
        return direction == .undo ? undo.reversed() : redo
    }

    /// The bytes each direction's payloads take, each payload counted with
    /// the `framing` bytes a message spends on it.
    public static func directionSizes(_ buffer: [UInt8], framing: Int) -> (undo: Int, redo: Int) {
        var sizes = (undo: 0, redo: 0)
        _ = forEachAction(in: buffer) { undo, redo in
            sizes.undo += undo + framing
            sizes.redo += redo + framing
        }
        return sizes
    }

    private static func appendPayload(_ bytes: [UInt8], to buffer: inout [UInt8]) {
        let count = UInt32(clamping: bytes.count)
        for shift in stride(from: UInt32(0), to: 32, by: 8) { buffer.append(UInt8(truncatingIfNeeded: count >> shift)) }
        buffer += bytes
    }

    /// The range of the payload at `offset`, moving past it; nil when the
    /// buffer ends too soon.
    private static func payloadRange(_ buffer: [UInt8], _ offset: inout Int) -> Range<Int>? {
        guard buffer.count - offset >= 4 else { return nil }
        let count = length(buffer, at: offset)
        offset += 4
        guard buffer.count - offset >= count else { return nil }
        defer { offset += count }
        return offset..<(offset + count)
    }

    /// The 4-byte little-endian length at `offset`, which must be in bounds.
    @inline(__always)
    private static func length(_ buffer: [UInt8], at offset: Int) -> Int {
        Int(buffer[offset]) | Int(buffer[offset + 1]) << 8 | Int(buffer[offset + 2]) << 16 | Int(buffer[offset + 3]) << 24
    }
}
