/// The payload a manager pushes for each group: its nonce (random per
/// manager, so another process's or an earlier run's payload is never taken
/// for its own) and the group's token, both big-endian.
struct GroupTokens {
    /// This manager's random number.
    let nonce: UInt64

    /// The payload that names group `token`.
    func payload(_ token: UInt64) -> [UInt8] {
        Self.bytes(nonce) + Self.bytes(token)
    }

    /// The token in a payload of this manager, or nil for anyone else's.
    func token(in payload: [UInt8]) -> UInt64? {
        guard payload.count == 16, Self.number(payload[0..<8]) == nonce else { return nil }
        return Self.number(payload[8..<16])
    }

    private static func bytes(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }

    private static func number(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
