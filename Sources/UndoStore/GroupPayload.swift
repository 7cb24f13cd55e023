import UndoCore

/// A group's actions as one blob: for each action, the undo payload's
/// length (4 bytes, little-endian) and bytes, then the redo payload's.
enum GroupPayload {
    /// The blob for `actions`.
    static func encode(_ actions: [Action]) -> [UInt8] {
        var blob: [UInt8] = []
        blob.reserveCapacity(actions.reduce(0) { $0 + 8 + $1.undo.count + $1.redo.count })
        for action in actions {
            append(action.undo, to: &blob)
            append(action.redo, to: &blob)
        }
        return blob
    }

    /// The actions in `blob`, or nil when it is not one `encode` made.
    static func decode(_ blob: [UInt8]) -> [Action]? {
        var actions: [Action] = []
        var offset = 0
        while offset < blob.count {
            guard let undo = take(blob, &offset), let redo = take(blob, &offset) else { return nil }
            actions.append(Action(undo: undo, redo: redo))
        }
        return actions
    }

    private static func append(_ bytes: [UInt8], to blob: inout [UInt8]) {
        let count = UInt32(clamping: bytes.count)
        for shift in stride(from: 0, to: 32, by: 8) { blob.append(UInt8(truncatingIfNeeded: count >> UInt32(shift))) }
        blob += bytes
    }

    private static func take(_ blob: [UInt8], _ offset: inout Int) -> [UInt8]? {
        guard blob.count - offset >= 4 else { return nil }
        var count = 0
        for index in 0..<4 { count |= Int(blob[offset + index]) << (8 * index) }
        offset += 4
        guard blob.count - offset >= count else { return nil }
        defer { offset += count }
        return Array(blob[offset..<(offset + count)])
    }
}
