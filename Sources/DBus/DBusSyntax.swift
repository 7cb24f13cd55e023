/// The D-Bus specification's rules for names and object paths, checked in
/// Swift on a string's bytes: what `dbus_validate_path` and its siblings
/// decide, without a `DBusString` set up and a C string made for each
/// check (an `Apply` call checks five names, and each set-up costs more
/// than the check itself).
/// `DBusSyntaxTests` holds them to libdbus's answers.
///
/// Every rule is about ASCII bytes, so a string holding a NUL, or any byte
/// over 0x7F, is refused as libdbus would refuse it.
enum DBusSyntax {
    /// The longest bus, interface, member or error name D-Bus allows.
    static let maximumNameBytes = 255

    /// Whether `path` is an object path: `/`, or `/`-separated elements of
    /// `[A-Za-z0-9_]`, none empty, no trailing `/`.
    static func isObjectPath(_ path: String) -> Bool {
        bytes(of: path) { bytes in
            guard bytes.first == UInt8(ascii: "/") else { return false }
            guard bytes.count > 1 else { return true }
            let name = ByteClass.name
            var previousWasSlash = true
            for index in 1..<bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "/") {
                    if previousWasSlash { return false }
                    previousWasSlash = true
                } else {
                    guard name.contains(byte) else { return false }
                    previousWasSlash = false
                }
            }
            return !previousWasSlash
        }
    }

    /// Whether `name` is an interface name: at least two `.`-separated
    /// elements, each `[A-Za-z_][A-Za-z0-9_]*`, at most 255 bytes.
    static func isInterfaceName(_ name: String) -> Bool {
        bytes(of: name) { dottedName($0, initial: .initialName, rest: .name) }
    }

    /// Whether `name` is an error name (the rules of an interface name).
    static func isErrorName(_ name: String) -> Bool {
        isInterfaceName(name)
    }

    /// Whether `name` is a member (method or signal) name:
    /// `[A-Za-z_][A-Za-z0-9_]*`, at most 255 bytes.
    static func isMemberName(_ name: String) -> Bool {
        bytes(of: name) { bytes in
            guard let first = bytes.first, bytes.count <= maximumNameBytes, ByteClass.initialName.contains(first) else { return false }
            return bytes.dropFirst().allSatisfy(ByteClass.name.contains)
        }
    }

    /// Whether `name` is a bus name: a unique name (`:` then `.`-separated
    /// elements of `[A-Za-z0-9_-]`, none empty) or a well-known one (at
    /// least two elements, each `[A-Za-z_-][A-Za-z0-9_-]*`), at most 255 bytes.
    static func isBusName(_ name: String) -> Bool {
        bytes(of: name) { bytes in
            guard bytes.first == UInt8(ascii: ":") else {
                return dottedName(bytes, initial: .initialBusName, rest: .busName)
            }
            guard bytes.count <= maximumNameBytes else { return false }
            let rest = bytes.dropFirst()
            var previousWasDot = false
            for byte in rest {
                if byte == UInt8(ascii: ".") {
                    if previousWasDot { return false }
                    previousWasDot = true
                } else {
                    guard ByteClass.busName.contains(byte) else { return false }
                    previousWasDot = false
                }
            }
            return !previousWasDot
        }
    }

    /// At least two `.`-separated elements, each an `initial` byte then
    /// `rest` bytes, at most 255 bytes in all.
    private static func dottedName(_ bytes: UnsafeBufferPointer<UInt8>, initial: ByteClass,
                                   rest: ByteClass) -> Bool {
        guard !bytes.isEmpty, bytes.count <= maximumNameBytes else { return false }
        var dots = 0
        var startOfElement = true
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                if startOfElement { return false }
                dots += 1
                startOfElement = true
            } else {
                guard (startOfElement ? initial : rest).contains(byte) else { return false }
                startOfElement = false
            }
        }
        return dots > 0 && !startOfElement
    }

    /// `body` with `text`'s UTF-8 bytes.
    private static func bytes(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        var text = text
        return text.withUTF8(body)
    }

    /// A set of ASCII bytes, as two bit masks: bit n of `low` stands for
    /// byte n, bit n of `high` for byte 64 + n.
    private struct ByteClass {
        let low: UInt64
        let high: UInt64

        @inline(__always)
        func contains(_ byte: UInt8) -> Bool {
            byte < 64 ? (low >> UInt64(byte)) & 1 != 0 : byte < 128 && (high >> UInt64(byte &- 64)) & 1 != 0
        }

        /// `[A-Za-z_]`: bytes 65–90, 95 and 97–122.
        static let initialName = ByteClass(low: 0, high: 0x07FF_FFFE_87FF_FFFE)
        /// `[A-Za-z0-9_]`: digits are bytes 48–57.
        static let name = ByteClass(low: 0x03FF_0000_0000_0000, high: initialName.high)
        /// `[A-Za-z_-]`: `-` is byte 45.
        static let initialBusName = ByteClass(low: 1 << 45, high: initialName.high)
        /// `[A-Za-z0-9_-]`.
        static let busName = ByteClass(low: name.low | 1 << 45, high: initialName.high)
    }
}
