/// Which key symbols each key code of the keyboard carries, as the server's
/// `GetKeyboardMapping` reports it: what turns a key name into the key codes
/// to grab.
public struct KeyboardMapping: Sendable, Equatable {
    /// Where a key symbol sits: its key code, and whether it takes Shift
    /// (the second level of the first group).
    public struct Placement: Sendable, Hashable {
        /// The key code.
        public var keycode: UInt8
        /// Whether Shift must be held to reach the symbol.
        public var shifted: Bool
    }

    /// The first key code described.
    public var firstKeycode: UInt8
    /// Key symbols listed per key code (groups and shift levels).
    public var symbolsPerKeycode: Int
    /// The symbols, `symbolsPerKeycode` for each key code in turn.
    public var symbols: [UInt32]

    /// Makes a mapping from the server's reply.
    public init(firstKeycode: UInt8, symbolsPerKeycode: Int, symbols: [UInt32]) {
        self.firstKeycode = firstKeycode
        self.symbolsPerKeycode = symbolsPerKeycode
        self.symbols = symbols
    }

    /// The key codes that carry `symbol` in the first group (the layout in
    /// use by default): on its first level, or else on its second, with
    /// Shift. Other groups are left out: with `us,de` layouts, z must not
    /// also grab the key where the second layout puts z.
    public func placements(of symbol: UInt32) -> [Placement] {
        guard symbolsPerKeycode > 0, symbol != 0 else { return [] }
        var found: [Placement] = []
        for (index, row) in stride(from: 0, to: symbols.count, by: symbolsPerKeycode).enumerated() {
            let keycode = Int(firstKeycode) + index
            guard keycode <= 255 else { break }
            if symbols[row] == symbol {
                found.append(Placement(keycode: UInt8(keycode), shifted: false))
            } else if symbolsPerKeycode > 1, row + 1 < symbols.count, symbols[row + 1] == symbol {
                found.append(Placement(keycode: UInt8(keycode), shifted: true))
            }
        }
        return found
    }

    /// Whether `keycode` carries any of `symbols` on any level.
    public func keycode(_ keycode: UInt8, carriesAnyOf wanted: Set<UInt32>) -> Bool {
        guard keycode >= firstKeycode, symbolsPerKeycode > 0 else { return false }
        let row = Int(keycode - firstKeycode) * symbolsPerKeycode
        guard row < symbols.count else { return false }
        return symbols[row..<min(row + symbolsPerKeycode, symbols.count)].contains { wanted.contains($0) }
    }
}
