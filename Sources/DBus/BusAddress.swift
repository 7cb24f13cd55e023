internal import CDBus

/// What `BusSocket` can connect to in a D-Bus address: its `unix:` entries,
/// parsed (and unescaped) by libdbus's own `dbus_parse_address`.
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

    /// The Unix sockets `address` names, in its order. Throws `BadAddress`
    /// for an address that does not parse or names none we can reach (only
    /// `unix:path=` and `unix:abstract=` are supported).
    static func unixSockets(in address: String) throws(DBusError) -> [UnixSocket] {
        var entries: UnsafeMutablePointer<OpaquePointer?>? = nil
        var count: Int32 = 0
        _ = try LibDBus.withCError { dbus_parse_address(address, &entries, &count, $0) }
        guard let entries else { return [] }
        defer { dbus_address_entries_free(entries) }
        var sockets: [UnixSocket] = []
        var methods: [String] = []
        for index in 0..<Int(count) {
            guard let entry = entries[index] else { continue }
            let method = dbus_address_entry_get_method(entry).map { String(cString: $0) } ?? ""
            methods.append(method)
            guard method == "unix" else { continue }
            if let path = dbus_address_entry_get_value(entry, "path") {
                sockets.append(UnixSocket(name: String(cString: path), isAbstract: false))
            } else if let name = dbus_address_entry_get_value(entry, "abstract") {
                sockets.append(UnixSocket(name: String(cString: name), isAbstract: true))
            }
        }
        guard !sockets.isEmpty else {
            throw DBusError(name: DBusError.Names.badAddress,
                            message: "The bus address “\(address)” names no Unix socket "
                                + "(unix:path= or unix:abstract=), the only kind undod connects to"
                                + (methods.isEmpty ? "." : "; it names \(methods.joined(separator: ", ")).")
            )
        }
        return sockets
    }
}
