@testable import Caretaker
import Testing

/// An origin's key, as the store keeps it, names that origin and no other:
/// every field comes back, spaces and `%` in paths included.
@Suite struct StackOriginTests {
    @Test(arguments: [
        StackOrigin(kind: .executable, program: "/usr/bin/gedit", programFile: "2049:131"),
        StackOrigin(kind: .executable, program: "/usr/bin/python3", programFile: "2049:7",
                    script: "/home/ann/My Notes/100% done.py", scriptFile: "2049:88"),
        StackOrigin(kind: .flatpak, program: "org.gnome.TextEditor"),
        StackOrigin(kind: .snap, program: "snap.notes.notes"),
    ])
    func aKeyNamesItsOrigin(_ origin: StackOrigin) {
        #expect(StackOrigin(key: origin.key) == origin)
        #expect(origin.key.split(separator: " ", omittingEmptySubsequences: false).count == 5)
    }

    @Test func fieldsAreEscapedSoThatNoPathPassesForAnother() {
        let spaced = StackOrigin(kind: .executable, program: "/opt/a b", programFile: "1:2")
        #expect(spaced.key == "executable /opt/a%20b 1:2  ")
        let percent = StackOrigin(kind: .executable, program: "/opt/50%", programFile: "1:2")
        #expect(percent.key == "executable /opt/50%25 1:2  ")
        #expect(spaced != StackOrigin(kind: .executable, program: "/opt/a", programFile: "b 1:2"))
    }

    @Test func aKeyNoUndodWritesNamesNoOrigin() {
        #expect(StackOrigin(key: "") == nil)
        #expect(StackOrigin(key: "executable /bin/sh") == nil)
        #expect(StackOrigin(key: "robot /bin/sh    ") == nil)
    }
}
