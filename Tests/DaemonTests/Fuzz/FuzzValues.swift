import DBus
import Rig

/// Random D-Bus values for a signature, leaning on the edges: empty and
/// boundary-sized strings and arrays, extreme numbers, control characters,
/// odd object paths, and option dictionaries whose keys are known but whose
/// variants hold the wrong type (a seeded generator: a run replays).
struct FuzzValues {
    var random: SplitMix64
    /// Stack paths the run has seen, so that calls reach real stacks too.
    var knownPaths: [String] = []
    /// Bytes the message being made may still take in strings and payloads
    /// (a call is at most a few MiB: the bus and undod's bounds are what is
    /// tested, not how long a gigabyte takes to copy).
    var budget = Self.messageBudget
    /// What one message may take.
    static let messageBudget = 4 << 20

    /// The keys of Register's options and Push's hints, each with its type.
    static let optionKeys: [(String, String)] = [
        ("document", "s"), ("title", "s"), ("limit", "u"), ("max_bytes", "t"), ("persist", "b"),
        ("global_trigger", "b"), ("windows", "at"), ("state_tag", "s"), ("merge_key", "s"),
        ("merge_window_ms", "u"),
    ]
    /// Signatures to put where another is expected.
    static let otherSignatures = ["s", "u", "t", "b", "y", "d", "o", "g", "as", "ay", "a{sv}", "(ss)", "v", "a(ayay)",
                                  "at", "x", "n", "q", "i", "aay", "a{ss}"]

    /// A value of the single complete type `signature`.
    mutating func value(_ signature: Substring) -> DBusValue {
        guard let code = signature.first else { return .string("") }
        switch code {
        case "y": return .byte(UInt8(truncatingIfNeeded: edgeNumber()))
        case "b": return .bool(random.chance(50))
        case "n": return .int16(Int16(truncatingIfNeeded: edgeNumber()))
        case "q": return .uint16(UInt16(truncatingIfNeeded: edgeNumber()))
        case "i": return .int32(Int32(truncatingIfNeeded: edgeNumber()))
        case "u": return .uint32(UInt32(truncatingIfNeeded: edgeNumber()))
        case "x": return .int64(Int64(bitPattern: edgeNumber()))
        case "t": return .uint64(edgeNumber())
        case "d": return .double(random.pick([0, -1, 1e308, -0.0, 3.5, .infinity, .nan]))
        case "s": return .string(string())
        case "o": return .objectPath(path())
        case "g": return .signature(random.pick(["", "s", "a{sv}", "(ayay)", "v"]))
        case "v":
            let inner = Self.otherSignatures[random.below(Self.otherSignatures.count)]
            return .variant(value(Substring(inner)))
        case "a":
            let element = signature.dropFirst()
            if element.hasPrefix("y") { return .bytes(bytes()) }
            if element.hasPrefix("{sv}") { return options() }
            if element.hasPrefix("{") {
                let inner = element.dropFirst().dropLast()
                let key = String(inner.prefix(1)), valueType = String(inner.dropFirst())
                let entries = (0..<count(small: true)).map { _ in
                    DBusValue.DictEntry(value(Substring(key)), value(Substring(valueType)))
                }
                return .dict(key: key, value: valueType, entries)
            }
            let elementType = String(element)
            return .array(element: elementType, (0..<count(small: elementType.count > 1)).map { _ in value(element) })
        case "(":
            return .structure(Self.fields(of: signature).map { value($0) })
        default:
            return .string(string())
        }
    }

    /// An `a{sv}` of options and hints: known keys (the right type mostly,
    /// else any), now and then an unknown key.
    mutating func options() -> DBusValue {
        var entries: [DBusValue.DictEntry] = []
        for _ in 0..<random.below(4) {
            let (key, type) = random.pick(Self.optionKeys)
            let typeUsed = random.chance(75) ? type : random.pick(Self.otherSignatures)
            entries.append(.init(.string(key), .variant(value(Substring(typeUsed)))))
        }
        if random.chance(15) { entries.append(.init(.string(string()), .variant(.uint32(1)))) }
        return .dict(key: "s", value: "v", entries)
    }

    /// A number at or near an edge, or any.
    mutating func edgeNumber() -> UInt64 {
        random.pick([0, 1, 2, 15, 16, 17, 255, 256, 0x7FFF_FFFF, 0xFFFF_FFFF, 0x1_0000_0000, .max, .max - 1,
                     UInt64(random.below(1_000)), random.next()])
    }

    /// A string at or near the edges undod cares about.
    mutating func string() -> String {
        let text = anyString()
        guard text.utf8.count <= budget else { return "over" }
        budget -= text.utf8.count
        return text
    }

    private mutating func anyString() -> String {
        switch random.below(10) {
        case 0: return ""
        case 1: return String(repeating: "a", count: random.pick([255, 256, 257, 4_096]))
        case 2: return "line\nbreak\t\u{1B}[31m\u{7F}"
        case 3: return "\u{2028}é✂️\u{200B}"
        case 4: return String(repeating: "x", count: random.pick([65_536, 300_000]))
        case 5: return "org.example.Fuzz\(random.below(6))"
        case 6: return "3"
        default: return "org.fuzz.app\(random.below(12))"
        }
    }

    /// A payload: empty, around 16 bytes, or larger.
    mutating func bytes() -> [UInt8] {
        var size = random.pick([0, 0, 1, 15, 16, 17, 100, 4_096, 65_536, random.chance(3) ? 1 << 20 : 10])
        if size > budget { size = random.pick([0, 1, 16]) }
        budget -= size
        return [UInt8](repeating: UInt8(truncatingIfNeeded: size), count: size)
    }

    /// How many elements: mostly few, now and then many.
    mutating func count(small: Bool) -> Int {
        if random.chance(90) { return random.below(4) }
        return small ? random.pick([16, 100]) : random.pick([100, 1_000, 10_000])
    }

    /// An object path: a stack the run knows, or an odd one.
    mutating func path() -> String {
        if !knownPaths.isEmpty, random.chance(60) { return random.pick(knownPaths) }
        return random.pick(["/", "/org/undod/Undo1", "/org/undod/Undo1/stack", "/org/undod/Undo1/stack/0",
                            "/org/undod/Undo1/stack/18446744073709551615", "/org/undod/Undo1/stack/99999",
                            "/org/undod/Undo1/stack/1/deeper", "/org/undod/Undo1/Client",
                            "/" + String(repeating: "p", count: 2_000)])
    }

    /// The complete types inside `(…)`.
    static func fields(of structure: Substring) -> [Substring] {
        types(of: structure.dropFirst().dropLast())
    }

    /// The complete types of a whole signature, in order.
    static func types(of signature: String) -> [Substring] {
        types(of: Substring(signature))
    }

    /// The complete types of `signature`, in order.
    static func types(of signature: Substring) -> [Substring] {
        var rest = signature
        var types: [Substring] = []
        while !rest.isEmpty {
            let length = completeTypeLength(rest)
            types.append(rest.prefix(length))
            rest = rest.dropFirst(length)
        }
        return types
    }

    /// How many characters the first complete type of `signature` takes.
    static func completeTypeLength(_ signature: Substring) -> Int {
        guard let first = signature.first else { return 0 }
        switch first {
        case "a": return 1 + completeTypeLength(signature.dropFirst())
        case "(", "{":
            let close: Character = first == "(" ? ")" : "}"
            var depth = 0
            for (offset, character) in signature.enumerated() {
                if character == first { depth += 1 }
                if character == close { depth -= 1 }
                if depth == 0 { return offset + 1 }
            }
            return signature.count
        default: return 1
        }
    }
}
