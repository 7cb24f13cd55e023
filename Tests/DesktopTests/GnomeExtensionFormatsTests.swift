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

    @Test func bothFormatsDescribeTheSameExtensionForTheirOwnShells() throws {
        func metadata(_ format: String) throws -> [String: Any] {
            let data = Data(try Self.text(format, "metadata.json").utf8)
            return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        }
        var old = try metadata("43"), new = try metadata("45")
        #expect(old.removeValue(forKey: "shell-version") as? [String] == ["43", "44"])
        #expect((new.removeValue(forKey: "shell-version") as? [String])?.first == "45")
        #expect(NSDictionary(dictionary: old).isEqual(to: new), "metadata.json differs beyond shell-version")
    }
}
