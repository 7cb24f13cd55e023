#if canImport(Glibc)
import Glibc
#endif
import FileUndo
import SystemCalls

/// The terminal the shell gave the command: its standard output and
/// error, and a question answered on its standard input.
final class StandardTerminal: CommandTerminal {
    func say(_ line: String) { Self.write(1, line + "\n") }

    func warn(_ line: String) { Self.write(2, line + "\n") }

    func ask(_ question: String) -> Bool {
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
    static func write(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let result = bytes.withUnsafeBytes { SystemCall.write(fd, $0) }
            guard case .success(let count) = result, count > 0 else { return }
            bytes = bytes.dropFirst(count)
        }
    }
}
