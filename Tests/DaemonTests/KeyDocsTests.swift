import BusHarness
import DBus
import Foundation
import Testing
import Undo1
import Undo1Wire
import UndoCore

/// Register's options and Push's hints are documented, each with its type
/// and default, in the introspection XML and in undod(1); and the table
/// they are documented from is the one the wire uses.
@Suite struct KeyDocsTests {
    @Test func theDocumentedKeysAreTheKeysOnTheWire() {
        let options = RegistrationOptions(document: "d", title: "t", limit: 1, maxBytes: 2, persist: true,
                                          globalTrigger: true, windows: [3], stateTag: "s", process: 4).values
        #expect(Dictionary(uniqueKeysWithValues: options.map { ($0.key, $0.value.signature) })
                == Dictionary(uniqueKeysWithValues: Undo1Keys.registerOptions.map { ($0.name, $0.type) }))
        let hints = PushHints(mergeKey: "k", mergeWindowMilliseconds: 5, stateTag: "s").values
        #expect(Dictionary(uniqueKeysWithValues: hints.map { ($0.key, $0.value.signature) })
                == Dictionary(uniqueKeysWithValues: Undo1Keys.pushHints.map { ($0.name, $0.type) }))
    }

    @Test func theXMLDocumentsEachKeyWithItsTypeAndDefault() throws {
        let xml = try String(contentsOf: Repository.root.appendingPathComponent("Service/org.undod.Undo1.xml"),
                             encoding: .utf8)
        for key in Undo1Keys.registerOptions + Undo1Keys.pushHints {
            let entry = "\(key.name) (\(key.type), default \(IntrospectionXMLText.escape(key.fallback)))"
            #expect(xml.contains(entry), "the XML lacks \(entry)")
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/groff"), "groff is not installed"))
    func theManPageDocumentsEachKeyWithItsTypeAndDefault() throws {
        let page = Repository.root.appendingPathComponent("Docs/undod.1").path
        let text = try runTool(["groff", "-man", "-Tutf8", "-ww", "-P", "-cbou", page],
                               environment: ["MANWIDTH": "200"]).output
        for key in Undo1Keys.registerOptions + Undo1Keys.pushHints {
            let entry = "\(key.name) (\(key.type), default \(key.fallback))"
            #expect(text.contains(entry), "undod(1) lacks \(entry)")
        }
    }
}

/// The escaping the introspection XML uses, for comparing text with it.
enum IntrospectionXMLText {
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&apos;")
    }
}
