@testable import DBus

extension WireEncoder {
    /// A method call written as `message` writes it, as an array of bytes,
    /// for tests that read or cut it.
    static func bytes(serial: UInt32 = 1, fields: Fields = .init(), arguments: [DBusValue], bodyBytes: Int) -> [UInt8] {
        do {
            let written = try message(type: 1, flags: 0, serial: serial, fields: fields, arguments: arguments,
                                      bodyBytes: bodyBytes)
            // The bytes live as long as `written` does.
            return withExtendedLifetime(written) { Array(written.bytes) }
        } catch {
            fatalError("a test's message could not be written: \(error)")
        }
    }
}
