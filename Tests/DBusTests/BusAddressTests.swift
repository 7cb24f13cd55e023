import CDBus
@testable import DBus
import Testing

/// Our parse of D-Bus addresses (`BusAddress`) against libdbus's own
/// `dbus_parse_address`: the same entries, or a refusal where it refuses.
@Suite struct BusAddressTests {
    /// The keys compared (libdbus answers for a key asked, not a list).
    static let keys = ["path", "abstract", "guid", "host", "port", "family", "dir", "tmpdir", "runtime"]

    /// libdbus's entries of `address` (its values of `keys`), or nil where it refuses it.
    static func libdbusEntries(_ address: String) -> [BusAddress.Entry]? {
        var entries: UnsafeMutablePointer<OpaquePointer?>? = nil
        var count: Int32 = 0
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard dbus_parse_address(address, &entries, &count, &error) != 0, let entries else { return nil }
        defer { dbus_address_entries_free(entries) }
        return (0..<Int(count)).compactMap { index in
            guard let entry = entries[index] else { return nil }
            let method = dbus_address_entry_get_method(entry).map { String(cString: $0) } ?? ""
            let pairs = Self.keys.compactMap { key in
                dbus_address_entry_get_value(entry, key).map { (key: key, value: String(cString: $0)) }
            }
            return BusAddress.Entry(method: method, pairs: pairs)
        }
    }

    @Test(arguments: [
        "unix:path=/tmp/bus", "unix:abstract=/tmp/dbus-x,guid=0123", "unix:path=/tmp/a%20b;tcp:host=x,port=1",
        "unix:path=/run/user/1000/bus", "unix:path=%2ftmp%2Fb", "unix:path=/a;unix:path=/b", "unix:path=/a;;unix:path=/b",
        ";unix:path=/a;", "unix:", "unix", ":path=/a", "unix:path", "unix:path=", "unix:=x", "unix:path=/a,",
        "unix:,path=/a", "unix:path=/a,,guid=1", "unix:path=%", "unix:path=%4", "unix:path=%zz", "unix:path=a=b",
        "unix:path=/ä", "tcp:host=localhost,port=4000", "nonsense", "", ";", "unix:path=/a:b", "unix:runtime=yes",
        "unix:path=/a\\\\b", "unix:path=%41%62", "unix:path=/a,path=/b", "unix:path=/a*b.c-d_e",
        "unix:path=/a;", "unix:path=/a;;", "unix:path=/a;\u{301}tcp:host=x", ";\u{301}",
    ])
    func parsesAsLibdbusDoes(_ address: String) {
        let ours = try? BusAddress.entries(of: address)
        let theirs = Self.libdbusEntries(address)
        #expect((ours == nil) == (theirs == nil), "\(address): ours \(String(describing: ours)), libdbus's \(String(describing: theirs))")
        if let ours, let theirs {
            #expect(ours.map(\.method) == theirs.map(\.method), "\(address)")
            for (mine, libdbus) in zip(ours, theirs) {
                for key in Self.keys {
                    #expect(mine.value(key) == libdbus.value(key), "\(address): \(key)")
                }
            }
        }
    }
}
