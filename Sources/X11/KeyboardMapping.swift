/// Which key symbols each key code of the keyboard carries, as the server's
/// `GetKeyboardMapping` reports it: what turns a key name into the key codes
/// to grab.
public struct KeyboardMapping: Sendable, Equatable {
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

    /// The key codes that carry `symbol` on any level, lowest first.
    public func keycodes(for symbol: UInt32) -> [UInt8] {
        guard symbolsPerKeycode > 0, symbol != 0 else { return [] }
        var found: [UInt8] = []
        for (index, row) in stride(from: 0, to: symbols.count, by: symbolsPerKeycode).enumerated() {
            let keycode = Int(firstKeycode) + index
            guard keycode <= 255 else { break }
            if symbols[row..<min(row + symbolsPerKeycode, symbols.count)].contains(symbol) {
                found.append(UInt8(keycode))
            }
        }
        return found
    }

    /// Whether `keycode` carries any of `symbols`.
    public func keycode(_ keycode: UInt8, carriesAnyOf wanted: Set<UInt32>) -> Bool {
        guard keycode >= firstKeycode, symbolsPerKeycode > 0 else { return false }
        let row = Int(keycode - firstKeycode) * symbolsPerKeycode
        guard row < symbols.count else { return false }
        return symbols[row..<min(row + symbolsPerKeycode, symbols.count)].contains { wanted.contains($0) }
    }
}
