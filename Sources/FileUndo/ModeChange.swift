/// A mode as `chmod` reads it: octal (`755`, `2775`) or symbolic clauses
/// separated by commas (`u+x`, `go-w`, `a=rX`, `+t`, `g=u`), applied to an
/// item's mode as coreutils applies them: without `ugoa`, what the
/// creation mask clears is left alone; `X` is execute for folders and
/// for what some class may execute already; a folder keeps its
/// set-user-ID and set-group-ID bits under an octal mode of four digits
/// or fewer.
struct ModeChange {
    private enum Clause {
        case octal(UInt32, digits: Int)
        case symbolic(who: UInt32, actions: [(operation: Character, permissions: String)])
    }

    private let clauses: [Clause]

    /// The mode `text` reads as; nil where it is not one.
    init?(_ text: String) {
        var clauses: [Clause] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            if !part.isEmpty, part.allSatisfy({ ("0"..."7").contains($0) }) {
                guard part.count <= 5, let value = UInt32(part, radix: 8), value <= 0o7777 else { return nil }
                clauses.append(.octal(value, digits: part.count))
                continue
            }
            var rest = Substring(part)
            var who: UInt32 = 0
            while let letter = rest.first, let bits = Self.classes[letter] {
                who |= bits
                rest = rest.dropFirst()
            }
            var actions: [(Character, String)] = []
            while let operation = rest.first, "+-=".contains(operation) {
                rest = rest.dropFirst()
                let permissions = rest.prefix { "rwxXstugo".contains($0) }
                rest = rest.dropFirst(permissions.count)
                let copies = permissions.filter { "ugo".contains($0) }
                guard copies.isEmpty || permissions.count == 1 else { return nil }
                actions.append((operation, String(permissions)))
            }
            guard rest.isEmpty, !actions.isEmpty else { return nil }
            clauses.append(.symbolic(who: who, actions: actions))
        }
        guard !clauses.isEmpty else { return nil }
        self.clauses = clauses
    }

    /// `mode` (its permission and special bits) changed, for an item that
    /// is a folder or not, under the creation mask `mask`.
    func applied(to mode: UInt32, isFolder: Bool, mask: UInt32) -> UInt32 {
        var mode = mode & 0o7777
        for clause in clauses {
            switch clause {
            case .octal(let value, let digits):
                let kept = isFolder && digits < 5 ? mode & 0o6000 : 0
                mode = value | kept
            case .symbolic(let who, let actions):
                let everyone = who == 0
                let classes = everyone ? 0o7777 : who
                let allowed: UInt32 = everyone ? ~mask : 0o7777
                for (operation, permissions) in actions {
                    var bits: UInt32 = 0
                    for letter in permissions {
                        switch letter {
                        case "r": bits |= 0o444
                        case "w": bits |= 0o222
                        case "x": bits |= 0o111
                        case "X": if isFolder || mode & 0o111 != 0 { bits |= 0o111 }
                        case "s": bits |= 0o6000
                        case "t": bits |= 0o1000
                        case "u": bits |= Self.spread((mode >> 6) & 7)
                        case "g": bits |= Self.spread((mode >> 3) & 7)
                        case "o": bits |= Self.spread(mode & 7)
                        default: break
                        }
                    }
                    let affected = bits & classes & Self.reach(classes) & allowed
                    switch operation {
                    case "+": mode |= affected
                    case "-": mode &= ~affected
                    default:
                        // `=`: the classes named lose what is not given
                        // (a folder's set-ID bits only when named).
                        var cleared = Self.reach(classes)
                        if isFolder && !permissions.contains("s") { cleared &= ~0o6000 }
                        mode = (mode & ~cleared) | affected
                    }
                }
            }
        }
        return mode
    }

    private static let classes: [Character: UInt32] = ["u": 0o4700, "g": 0o2070, "o": 0o1007, "a": 0o7777]

    /// Three permission bits repeated for every class.
    private static func spread(_ bits: UInt32) -> UInt32 { bits << 6 | bits << 3 | bits }

    /// The bits `classes` may change: their permissions, and the special
    /// bit of each (`s` for user and group, `t` for others).
    private static func reach(_ classes: UInt32) -> UInt32 {
        (classes & 0o777) | special(classes)
    }

    private static func special(_ classes: UInt32) -> UInt32 {
        var bits: UInt32 = 0
        if classes & 0o700 != 0 { bits |= 0o4000 }
        if classes & 0o070 != 0 { bits |= 0o2000 }
        if classes & 0o007 != 0 { bits |= 0o1000 }
        return bits
    }
}
