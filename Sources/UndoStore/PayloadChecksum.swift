internal import CShim

/// CRC-32C (Castagnoli) of a group's stored payloads: written with every
/// group and checked before any payload read back goes to an application,
/// so that a damaged page of the store is found instead of applied.
///
/// A 1 MiB Push checks its payload on the way in and on every undo or redo
/// that reads it back, so speed matters: the processor's own instruction
/// where it has one (SSE 4.2, about 0.1 ms per MiB here), else eight bytes
/// at a time from tables (about 1 ms per MiB).
package enum PayloadChecksum {
    /// Whether `of` uses the processor's CRC-32C instruction.
    package static let usesProcessor = cshim_crc32c_available() == 1

    /// The checksum of `bytes`.
    package static func of(_ bytes: [UInt8]) -> UInt32 {
        guard usesProcessor else { return bySlices(bytes) }
        return bytes.withUnsafeBytes { buffer in
            cshim_crc32c_update(0xFFFF_FFFF, buffer.baseAddress, buffer.count) ^ 0xFFFF_FFFF
        }
    }

    /// The checksum of `bytes` computed eight bytes at a time ("slicing by
    /// 8": eight tables, each giving the remainder of a byte that many
    /// positions further on), about six times the speed of a byte at a
    /// time: where the processor has no instruction for it.
    package static func bySlices(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { buffer in
            var crc: UInt32 = 0xFFFF_FFFF
            var offset = 0
            let count = buffer.count
            tables.withUnsafeBufferPointer { table in
                while offset + 8 <= count {
                    let word = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                        ^ UInt64(crc)
                    crc = table[7 * 256 + Int(word & 0xFF)] ^ table[6 * 256 + Int((word >> 8) & 0xFF)]
                        ^ table[5 * 256 + Int((word >> 16) & 0xFF)] ^ table[4 * 256 + Int((word >> 24) & 0xFF)]
                        ^ table[3 * 256 + Int((word >> 32) & 0xFF)] ^ table[2 * 256 + Int((word >> 40) & 0xFF)]
                        ^ table[256 + Int((word >> 48) & 0xFF)] ^ table[Int(word >> 56)]
                    offset += 8
                }
                while offset < count {
                    crc = table[Int((crc ^ UInt32(buffer[offset])) & 0xFF)] ^ (crc >> 8)
                    offset += 1
                }
            }
            return crc ^ 0xFFFF_FFFF
        }
    }

    /// Eight tables of 256 remainders for the reflected polynomial
    /// 0x82F63B78: table k gives a byte's remainder after k more zero bytes.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0x82F6_3B78 : value >> 1 }
            tables[index] = value
        }
        for slice in 1..<8 {
            for index in 0..<256 {
                let previous = tables[(slice - 1) * 256 + index]
                tables[slice * 256 + index] = tables[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return tables
    }()
}
