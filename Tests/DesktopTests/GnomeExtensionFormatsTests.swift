import BusHarness
import Foundation
import Testing

/// undod's GNOME Shell extension comes in two formats: GNOME Shell 43 and
/// 44 load `Service/gnome-shell/43/` (`imports`, an `init()`), 45 and
/// later `Service/gnome-shell/45/` (ES modules, a subclass of
/// `Extension`), and neither Shell loads the other's. `GnomeShellTests`
/// can run only the one Debian's Shell loads, so these hold the other to
/// the same code: the two may differ in how they load, and in nothing else.
@Suite struct GnomeExtensionFormatsTests {
    static func text(_ format: String, _ file: String) throws -> String {
        try String(contentsOf: Repository.file("Service/gnome-shell/\(format)/undod@undod.org/\(file)"), encoding: .utf8)
    }

    /// What follows the imports, with the 45 format's ways of loading
    /// written as the 43 format's.
    static func code(_ format: String) throws -> String {
        let text = try Self.text(format, "extension.js")
        guard let start = text.range(of: "\nconst UNDOD = ") else { return "" }
        var code = String(text[start.lowerBound...])
        if format == "45" {
            code = code.replacingOccurrences(of: "export default class UndodExtension extends Extension {",
                                             with: "class UndodExtension {")
                .replacingOccurrences(of: "this.getSettings()", with: "ExtensionUtils.getSettings()")
                + "\nfunction init() {\n    return new UndodExtension();\n}\n"
        }
        return code
    }

    @Test func bothFormatsHoldTheSameCodeBeyondHowTheyLoad() throws {
        let old = try Self.code("43"), new = try Self.code("45")
        #expect(!old.isEmpty && !new.isEmpty, "each format declares its constants after its imports")
        #expect(old == new, "Service/gnome-shell/43 and 45 differ beyond how they load: change both alike")
    }

    static func metadata(_ format: String) throws -> [String: Any] {
        let data = Data(try Self.text(format, "metadata.json").utf8)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// The GNOME Shell releases the project says the extension works on
    /// (README, Desktops): a Shell whose major version its metadata does
    /// not list marks it OUT OF DATE and never loads it, and the key is
    /// dead there (GNOME 48 did so to a metadata that stopped at 47).
    static let claimed = 43...51

    @Test func everyClaimedShellIsDeclaredByExactlyOneFormat() throws {
        let old = try Self.metadata("43")["shell-version"] as? [String] ?? []
        let new = try Self.metadata("45")["shell-version"] as? [String] ?? []
        for version in Self.claimed.map(String.init) {
            let formats = (old.contains(version) ? 1 : 0) + (new.contains(version) ? 1 : 0)
            #expect(formats == 1, "GNOME Shell \(version) is claimed: exactly one format's metadata.json lists it")
        }
        #expect(old.allSatisfy { Int($0).map { $0 < 45 } == true }, "the 43 format is for Shells before 45")
        #expect(new.allSatisfy { Int($0).map { $0 >= 45 } == true }, "the 45 format is for 45 and later")
        let readme = try String(contentsOf: Repository.file("README.md"), encoding: .utf8)
        #expect(readme.contains("GNOME Shell \(Self.claimed.lowerBound)–\(Self.claimed.upperBound)"),
                "README names the GNOME Shells the extension claims")
    }

    /// The tests' hand comes in both formats too: what it does for a test
    /// (`Focus`, `Windows`, `Started`) is the same code in each.
    @Test func theTestsHandDoesTheSameInBothFormats() throws {
        func methods(_ format: String) throws -> String {
            let text = try String(contentsOf: Repository.file(
                "Tests/Clients/gnome-shell/\(format)/undod-test@undod.test/extension.js"), encoding: .utf8)
            guard let start = text.range(of: "    Focus(pid) {"),
                  let end = text.range(of: "\n}\n", range: start.upperBound..<text.endIndex) else { return "" }
            return String(text[start.lowerBound..<end.lowerBound])
        }
        let old = try methods("43"), new = try methods("45")
        #expect(!old.isEmpty && old == new, "Tests/Clients/gnome-shell/43 and 45 differ in what the hand does")
    }

    @Test func bothFormatsDescribeTheSameExtensionForTheirOwnShells() throws {
        var old = try Self.metadata("43"), new = try Self.metadata("45")
        #expect(old.removeValue(forKey: "shell-version") as? [String] == ["43", "44"])
        #expect((new.removeValue(forKey: "shell-version") as? [String])?.first == "45")
        #expect(NSDictionary(dictionary: old).isEqual(to: new), "metadata.json differs beyond shell-version")
    }
}
