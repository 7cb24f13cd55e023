import BusHarness
import Foundation
import Testing

/// The man pages and the JSON schema stay in step with the tool.
@Suite struct DocsTests {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: Repository.file(path), encoding: .utf8)
    }

    @Test func theManPageDocumentsEveryCommandAndOption() throws {
        let page = try Self.text("Docs/undoctl.1")
        for command in CommandLineTests.commands {
            #expect(page.contains("\n.BR \(command) ") || page.contains("\n.B \(command)\n")
                    || page.contains("\n.BI \(command) "), "undoctl.1 describes \(command)")
        }
        for option in ["\\-\\-address", "\\-\\-json", "\\-\\-count", "\\-\\-quiet", "\\-\\-help", "\\-\\-version"] {
            #expect(page.contains(option), "undoctl.1 describes \(option)")
        }
        for section in ["TARGET", "COMMANDS", "OPTIONS", "JSON OUTPUT", "EXIT STATUS", "EXAMPLES"] {
            #expect(page.contains(".SH \(section)\n"))
        }
    }

    @Test func theJSONSchemaNamesEveryKeyOfTheStackObject() throws {
        let schema = try Self.text("Docs/undoctl-json.md")
        for key in StackSchema.keys {
            #expect(schema.contains("| `\(key)` |"), "undoctl-json.md documents \(key)")
        }
        for event in ["focus", "pushed", "applied", "added", "removed", "daemon"] {
            #expect(schema.contains("| `\(event)` |"), "undoctl-json.md documents the \(event) event")
        }
    }

    @Test(.enabled(if: CompletionTests.installed("groff"), "groff is not installed on this machine"),
          arguments: ["Docs/undoctl.1", "Docs/undod.1", "Docs/undod-files.1"])
    func manPagesRenderWithoutWarnings(_ path: String) throws {
        let result = try runTool(["groff", "-man", "-ww", "-z", Repository.file(path).path])
        #expect(result.status == 0 && result.errors.isEmpty, "\(path): \(result.errors)")
    }
}
