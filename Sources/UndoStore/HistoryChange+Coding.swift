import UndoCore

/// How a change is written in a journal record: a kind byte, then its
/// fields in order. Integers are 8 bytes, little-endian; a string or byte
/// string is its length (4 bytes) and its bytes; an optional integer is a
/// byte (0 or 1) and, with 1, the integer; a flag is a byte.
extension HistoryChange {
    /// Appends the change to `out`.
    package func encode(into out: inout [UInt8]) {
        switch self {
        case .stack(let row):
            // Kind 1 is a row without its origin (before schema 5): read, never written.
            out.append(9)
            Self.put(row.number, &out); Self.put(row.appId, &out); Self.put(row.document, &out)
            Self.put(row.title, &out); Self.put(UInt64(row.requestedLevels), &out)
            Self.put(row.requestedMaxBytes, &out); Self.put(row.globalTrigger, &out)
            Self.put(row.detachedSince, &out); Self.put(row.baseStateID, &out); Self.put(row.baseStateTag, &out)
            Self.put(row.clean, &out); Self.put(row.topIsMergeable, &out); Self.put(row.origin, &out)
        case .detachedSince(let number, let since):
            out.append(2)
            Self.put(number, &out); Self.put(since, &out)
        case .historyState(let number, let baseID, let baseTag, let clean, let topMergeable):
            out.append(3)
            Self.put(number, &out); Self.put(baseID, &out); Self.put(baseTag, &out); Self.put(clean, &out)
            Self.put(topMergeable, &out)
        case .group(let row):
            out.append(4)
            Self.put(row.id, &out); Self.put(row.stack, &out); Self.put(row.redo, &out); Self.put(row.name, &out)
            Self.put(UInt64(bitPattern: row.time), &out); Self.put(row.mergeKey, &out); Self.put(row.stateTag, &out)
            Self.put(row.bytes, &out); Self.put(row.charged, &out); Self.put(row.payload, &out)
            Self.put(UInt64(row.checksum), &out); Self.put(row.file, &out)
        case .groupMoved(let id, let redo, let name, let time, let stateTag):
            out.append(5)
            Self.put(id, &out); Self.put(redo, &out); Self.put(name, &out); Self.put(UInt64(bitPattern: time), &out)
            Self.put(stateTag, &out)
        case .stackDeleted(let number):
            out.append(6)
            Self.put(number, &out)
        case .groupDeleted(let id):
            out.append(7)
            Self.put(id, &out)
        case .counters(let nextStack, let nextGroup):
            out.append(8)
            Self.put(nextStack, &out); Self.put(nextGroup, &out)
        }
    }

    /// Every change in a record's body, in order; nil when the body is not
    /// one this undod wrote (an unknown kind, a field cut short, bytes left
    /// over).
    package static func decodeAll(_ body: [UInt8]) -> [HistoryChange]? {
        var reader = Reader(bytes: body)
        var changes: [HistoryChange] = []
        while !reader.isAtEnd {
            guard let change = decode(&reader) else { return nil }
            changes.append(change)
        }
        return changes
    }

    private static func decode(_ r: inout Reader) -> HistoryChange? {
        switch r.byte() {
        case let kind where kind == 1 || kind == 9:
            guard let number = r.integer(), let appId = r.string(), let document = r.string(), let title = r.string(),
                  let levels = r.integer(), let maxBytes = r.integer(), let global = r.flag(),
                  let detached = r.optionalInteger(), let baseID = r.integer(), let baseTag = r.string(),
                  let clean = r.clean(), let mergeable = r.flag(),
                  let origin = kind == 9 ? r.string() : "" else { return nil }
            return .stack(StackRow(
                number: number, appId: appId, document: document, title: title,
                requestedLevels: UInt32(clamping: levels), requestedMaxBytes: maxBytes, globalTrigger: global,
                detachedSince: detached.map { Int64(bitPattern: $0) }, baseStateID: baseID, baseStateTag: baseTag,
                clean: clean, topIsMergeable: mergeable, origin: origin))
        case 2:
            guard let number = r.integer(), let since = r.optionalInteger() else { return nil }
            return .detachedSince(stack: number, since: since.map { Int64(bitPattern: $0) })
        case 3:
            guard let number = r.integer(), let baseID = r.integer(), let baseTag = r.string(), let clean = r.clean(),
                  let mergeable = r.flag() else { return nil }
            return .historyState(stack: number, baseID: baseID, baseTag: baseTag, clean: clean, topMergeable: mergeable)
        case 4:
            guard let id = r.integer(), let stack = r.integer(), let redo = r.flag(), let name = r.string(),
                  let time = r.integer(), let mergeKey = r.string(), let stateTag = r.string(), let bytes = r.integer(),
                  let charged = r.integer(), let payload = r.byteString(), let checksum = r.integer(),
                  let file = r.string() else { return nil }
            return .group(GroupRow(id: id, stack: stack, redo: redo, name: name, time: Int64(bitPattern: time),
                                   mergeKey: mergeKey, stateTag: stateTag, bytes: bytes, charged: charged,
                                   payload: payload, checksum: UInt32(truncatingIfNeeded: checksum), file: file))
        case 5:
            guard let id = r.integer(), let redo = r.flag(), let name = r.string(), let time = r.integer(),
                  let stateTag = r.string() else { return nil }
            return .groupMoved(id: id, redo: redo, name: name, time: Int64(bitPattern: time), stateTag: stateTag)
        case 6:
            return r.integer().map { .stackDeleted($0) }
        case 7:
            return r.integer().map { .groupDeleted($0) }
        case 8:
            guard let nextStack = r.integer(), let nextGroup = r.integer() else { return nil }
            return .counters(nextStack: nextStack, nextGroup: nextGroup)
        default:
            return nil
        }
    }

    // MARK: Writing fields

    private static func put(_ value: UInt64, _ out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    private static func put(_ value: Bool, _ out: inout [UInt8]) {
        out.append(value ? 1 : 0)
    }

    private static func put(_ value: Int64?, _ out: inout [UInt8]) {
        guard let value else { return out.append(0) }
        out.append(1)
        put(UInt64(bitPattern: value), &out)
    }

    private static func put(_ value: [UInt8], _ out: inout [UInt8]) {
        withUnsafeBytes(of: UInt32(value.count).littleEndian) { out.append(contentsOf: $0) }
        out.append(contentsOf: value)
    }

    private static func put(_ value: String, _ out: inout [UInt8]) {
        var value = value
        value.withUTF8 { text in
            withUnsafeBytes(of: UInt32(text.count).littleEndian) { out.append(contentsOf: $0) }
            out.append(contentsOf: text)
        }
    }

    private static func put(_ clean: CleanState, _ out: inout [UInt8]) {
        if case .state(let id) = clean { put(Int64(bitPattern: id), &out) } else { put(Int64?.none, &out) }
    }

    /// Reads fields back; each read gives nil past the end.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func flag() -> Bool? {
            switch byte() {
            case .some(0): false
            case .some(1): true
            default: nil
            }
        }

        mutating func integer() -> UInt64? {
            guard bytes.count - offset >= 8 else { return nil }
            var value: UInt64 = 0
            for index in (offset..<offset + 8).reversed() { value = value << 8 | UInt64(bytes[index]) }
            offset += 8
            return value
        }

        mutating func optionalInteger() -> UInt64?? {
            switch flag() {
            case .some(false): .some(nil)
            case .some(true): integer().map { Optional($0) }
            case .none: nil
            }
        }

        mutating func byteString() -> [UInt8]? {
            guard bytes.count - offset >= 4 else { return nil }
            var count = 0
            for index in (offset..<offset + 4).reversed() { count = count << 8 | Int(bytes[index]) }
            guard bytes.count - offset - 4 >= count else { return nil }
            defer { offset += 4 + count }
            return Array(bytes[offset + 4..<offset + 4 + count])
        }

        mutating func string() -> String? {
            byteString().flatMap { String(validating: $0, as: UTF8.self) }
        }

        mutating func clean() -> CleanState? {
            switch optionalInteger() {
            case .some(.some(let id)): .state(id)
            case .some(.none): .unreachable
            case .none: nil
            }
        }
    }
}
