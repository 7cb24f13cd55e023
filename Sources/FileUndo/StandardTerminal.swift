#if canImport(Glibc)
import Glibc
#endif
import SystemCalls

/// The terminal the shell gave the command: its standard output and
/// error, and a question answered on its standard input.
public final class StandardTerminal: CommandTerminal {
    /// The process's own standard streams.
    public init() {}

    /// Writes `line` to standard output.
    public func say(_ line: String) { Self.write(1, line + "\n") }

    /// Writes `line` to standard error.
    public func warn(_ line: String) { Self.write(2, line + "\n") }

    /// Asks on standard error; yes when the line read starts with y or Y.
    public func ask(_ question: String) -> Bool {
        Self.write(2, question)
        var answer: [UInt8] = []
        var byte: UInt8 = 0
        while answer.count < 1024 {
            let result = withUnsafeMutableBytes(of: &byte) { SystemCall.read(0, into: $0) }
            guard case .success(1) = result, byte != UInt8(ascii: "\n") else { break }
            answer.append(byte)
        }
        return answer.first == UInt8(ascii: "y") || answer.first == UInt8(ascii: "Y")
    }

    /// Writes all of `text` to `fd`.
    public static func write(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let result = bytes.withUnsafeBytes { SystemCall.write(fd, $0) }
            guard case .success(let count) = result, count > 0 else { return }
            bytes = bytes.dropFirst(count)
        }
    }
}
