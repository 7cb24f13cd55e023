internal import CDBus
@testable import DBus
import Testing

/// `DBusSyntax` decides every name and path as libdbus's validators do, on
/// the strings that find the edges (empty elements, leading and trailing
/// dots and slashes, digits first, `-`, non-ASCII, 255 bytes) and on many
/// random ones.
@Suite struct DBusSyntaxTests {
    /// The libdbus validator and ours, by what they check.
    static var pairs: [(String, (UnsafePointer<CChar>) -> Bool, (String) -> Bool)] { [
        ("object path", { dbus_validate_path($0, nil) != 0 }, DBusSyntax.isObjectPath),
        ("interface", { dbus_validate_interface($0, nil) != 0 }, DBusSyntax.isInterfaceName),
        ("member", { dbus_validate_member($0, nil) != 0 }, DBusSyntax.isMemberName),
        ("error name", { dbus_validate_error_name($0, nil) != 0 }, DBusSyntax.isErrorName),
        ("bus name", { dbus_validate_bus_name($0, nil) != 0 }, DBusSyntax.isBusName),
    ] }

    static let edges = [
        "", "/", "//", "/a", "/a/", "/a//b", "/a/b_9", "/a-b", "a", "a.b", ".a.b", "a.b.", "a..b", "a.9b", "9a.b",
        "_a._b", "a-b.c", "-a.b", ":", ":1", ":1.5", ":.a", ":a.", ":a..b", ":-.9", ":a:b", "org.undod.Undo1",
        "Apply", "9Apply", "_", "a.b.c.d", "é.a", "a.é", "/é", "org.freedesktop.DBus", "a b", "a\tb",
        String(repeating: "a", count: 255), String(repeating: "a", count: 256),
        "a." + String(repeating: "b", count: 253), "a." + String(repeating: "b", count: 254),
        ":" + String(repeating: "1", count: 254), ":" + String(repeating: "1", count: 255),
        "/" + String(repeating: "p", count: 300),
        // The bytes beside each allowed range.
        "@a.b", "a@.b", "a[.b", "a`.b", "a{.b", "a~.b", "a\u{7F}.b", "a/.b", "a:.b", "/a@", "/a[", "/a`", "/a{",
        ":1.@", ":1.[", ":1.`", ":1.{", ":1./", "@", "[", "`", "{", "/", "\u{80}", "a\u{FF}",
    ]

    @Test func agreesWithLibDBusOnTheEdges() {
        for text in Self.edges { check(text) }
    }

    @Test func agreesWithLibDBusOnRandomStrings() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("/.:-_aZz09 é".unicodeScalars)
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...9, using: &generator)
            var text = ""
            for _ in 0..<length { text.unicodeScalars.append(alphabet.randomElement(using: &generator)!) }
            check(text)
        }
    }

    @Test func aNULIsNeverValid() {
        for (kind, _, ours) in Self.pairs {
            for text in ["/a\u{0}/b", "a.b\u{0}", "a\u{0}b", ":1.\u{0}"] {
                #expect(!ours(text), "\(kind) “\(text.debugDescription)”")
            }
        }
    }

    private func check(_ text: String) {
        for (kind, libdbus, ours) in Self.pairs {
            #expect(text.withCString(libdbus) == ours(text), "\(kind) \(text.debugDescription)")
        }
    }
}
