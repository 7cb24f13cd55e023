import Foundation
import Testing
import UndoStore

/// The store's CRC-32C: the published check values, and both fast paths
/// (the processor's instruction, eight bytes at a time from tables)
/// agreeing with the plain byte-at-a-time rule at every length and
/// alignment of the tail.
@Suite struct PayloadChecksumTests {
    @Test func publishedCheckValues() {
        #expect(PayloadChecksum.of(Array("123456789".utf8)) == 0xE306_9283)
        #expect(PayloadChecksum.of([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
        #expect(PayloadChecksum.of([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
        #expect(PayloadChecksum.of((0..<32).map { UInt8($0) }) == 0x46DD_794E)
        #expect(PayloadChecksum.of([]) == 0)
        #expect(PayloadChecksum.bySlices(Array("123456789".utf8)) == 0xE306_9283)
    }

    /// The processor's instruction is used exactly where the kernel says
    /// the processor has it (an x86-64 with `sse4_2` among its flags).
    @Test func usesTheProcessorWhereItCan() throws {
        let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let flags = cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") }.map { $0.split(separator: " ") } ?? []
        #if arch(x86_64)
        #expect(PayloadChecksum.usesProcessor == flags.contains("sse4_2"))
        #else
        #expect(!PayloadChecksum.usesProcessor)
        #endif
    }

    @Test func agreesWithTheByteAtATimeRuleAtEveryLength() {
        var bytes: [UInt8] = []
        var state: UInt32 = 12_345
        for length in 0..<200 {
            #expect(PayloadChecksum.of(bytes) == byteAtATime(bytes), "length \(length)")
            #expect(PayloadChecksum.bySlices(bytes) == byteAtATime(bytes), "length \(length)")
            state = state &* 1_103_515_245 &+ 12_345
            bytes.append(UInt8(truncatingIfNeeded: state >> 16))
        }
    }

    private func byteAtATime(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
