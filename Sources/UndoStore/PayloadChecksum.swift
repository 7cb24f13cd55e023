/// CRC-32C (Castagnoli) of a group's stored payloads: written with every
/// group and checked before any payload read back goes to an application,
/// so that a damaged page of the store is found instead of applied.
enum PayloadChecksum {
    /// The checksum of `bytes`.
    static func of(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// The remainders of every byte, for the reflected polynomial 0x82F63B78.
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0x82F6_3B78 : value >> 1 }
        return value
    }
}
