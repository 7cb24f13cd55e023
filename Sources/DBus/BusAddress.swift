/// What `BusSocket` can connect to in a D-Bus address: its `unix:` entries,
/// parsed and unescaped here as the D-Bus specification lays addresses
/// out (`method:key=value,…` entries separated by `;`, a byte outside
/// `[-0-9A-Za-z_/.\*]` written `%XX`). `BusAddressTests` holds the parse to
/// libdbus's `dbus_parse_address`.
enum BusAddress {
    /// One Unix socket: a path in the file system, or an abstract name.
    struct UnixSocket: Equatable, CustomStringConvertible {
        /// The path, or the abstract name without its leading NUL.
        let name: String
        /// Whether `name` is abstract (`unix:abstract=`).
        let isAbstract: Bool

        /// The entry as an address would spell it (unescaped).
        var description: String { (isAbstract ? "unix:abstract=" : "unix:path=") + name }
    }

    /// One entry of an address: its method (`unix`, `tcp`, …) and its
    /// keys' unescaped values.
    struct Entry {
        /// The transport.
        let method: String
        /// The keys and their values, in order.
        let pairs: [(key: String, value: String)]

        /// The value of `key`, or nil.
        func value(_ key: String) -> String? { pairs.first { $0.key == key }?.value }
    }

    /// The Unix sockets `address` names, in its order. Throws `BadAddress`
    /// for an address that does not parse or names none we can reach (only
    /// `unix:path=` and `unix:abstract=` are supported).
    static func unixSockets(in address: String) throws(DBusError) -> [UnixSocket] {
        let entries = try Self.entries(of: address)
        let sockets = entries.compactMap { entry -> UnixSocket? in
            guard entry.method == "unix" else { return nil }
            if let path = entry.value("path") { return UnixSocket(name: path, isAbstract: false) }
            return entry.value("abstract").map { UnixSocket(name: $0, isAbstract: true) }
        }
        guard !sockets.isEmpty else {
            let methods = entries.map(\.method)
            throw DBusError(name: DBusError.Names.badAddress,
                            message: "The bus address “\(address)” names no Unix socket "
                                + "(unix:path= or unix:abstract=), the only kind undod connects to"
                                + (methods.isEmpty ? "." : "; it names \(methods.joined(separator: ", ")).")
            )
        }
        return sockets
    }

    /// Every entry of `address`, in order. Refused, as libdbus refuses
    /// them: an empty address or entry (`;;`, a `;` at the start), an entry
    /// without `:`, a pair without `=` or a value, a byte that must be
    /// escaped and is not, a `%` without two hex digits. A `;` may end the
    /// address, and a `,` an entry's pairs. Read byte by byte, as libdbus
    /// reads it.
    static func entries(of address: String) throws(DBusError) -> [Entry] {
        var texts = Array(address.utf8).split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
        if texts.count > 1, texts.last?.isEmpty == true { texts.removeLast() }
        var entries: [Entry] = []
        for text in texts {
            func quoted(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
            guard !text.isEmpty else { throw bad(address, "it has an empty entry") }
            guard let colon = text.firstIndex(of: UInt8(ascii: ":")) else {
                throw bad(address, "its entry “\(quoted(text))” has no method (method:key=value)")
            }
            var pairs: [(key: String, value: String)] = []
            let given = text[(colon + 1)...].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            for (index, pair) in given.enumerated() where !(pair.isEmpty && index == given.count - 1) {
                guard let equals = pair.firstIndex(of: UInt8(ascii: "=")), equals != pair.startIndex else {
                    throw bad(address, "“\(quoted(pair))” in it is not key=value")
                }
                let value = pair[(equals + 1)...]
                guard !value.isEmpty else { throw bad(address, "the key “\(quoted(pair[..<equals]))” in it has no value") }
                guard let unescaped = unescape(value) else {
                    throw bad(address, "“\(quoted(value))” in it has a byte that must be written %XX, or a % not "
                                  + "followed by two hex digits")
                }
                pairs.append((quoted(pair[..<equals]), unescaped))
            }
            entries.append(Entry(method: quoted(text[..<colon]), pairs: pairs))
        }
        return entries
    }

    /// `text` with each `%XX` made the byte it stands for; nil for a `%`
    /// without two hex digits after it, or a byte outside
    /// `[-0-9A-Za-z_/.\\*]` written as itself.
    private static func unescape(_ text: ArraySlice<UInt8>) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                guard isOptionallyEscaped(byte) else { return nil }
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes a value may hold as themselves (the specification's
    /// "optionally escaped" bytes).
    private static func isOptionallyEscaped(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        default:
            "-_/\\.*".utf8.contains(byte)
        }
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func bad(_ address: String, _ why: String) -> DBusError {
        DBusError(name: DBusError.Names.badAddress, message: "The bus address “\(address)” is not one: \(why).")
    }
}
