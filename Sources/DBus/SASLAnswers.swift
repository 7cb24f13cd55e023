#if canImport(Glibc)
internal import Glibc
#endif

/// The bus's side of the authentication exchange: CR LF-ended lines, read
/// from the socket a buffer at a time (not a byte a `read(2)`).
struct SASLAnswers {
    /// What was read and not yet taken as a line.
    private var pending: [UInt8] = []
    /// The longest line a bus sends (`OK` and a 32-digit guid, or an
    /// `ERROR` with a reason); anything longer is not SASL.
    private static let longestLine = 512

    /// Whether every byte read was taken as a line.
    var isDrained: Bool { pending.isEmpty }

    /// The next line, without its CR LF, reading from `socket` while none
    /// is whole; nil when the bus closed the connection first.
    mutating func next(from socket: BusSocket, until deadline: Int64) throws(DBusError) -> String? {
        var buffer = [UInt8](repeating: 0, count: Self.longestLine)
        while true {
            if let end = lineEnd() {
                let line = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeFirst(end + 2)
                return line
            }
            guard pending.count < Self.longestLine else { throw BusSocket.authFailed("the bus's answer is not SASL") }
            switch buffer.withUnsafeMutableBytes({ socket.read(into: $0) }) {
            case .moved(let count): pending += buffer[..<count]
            case .closed: return nil
            case .wouldBlock: try socket.wait(for: Int16(POLLIN), until: deadline)
            }
        }
    }

    /// Where the first CR LF of `pending` starts.
    private func lineEnd() -> Int? {
        guard pending.count >= 2 else { return nil }
        return (0..<pending.count - 1).first { pending[$0] == 13 && pending[$0 + 1] == 10 }
    }
}
