import BusHarness
import Foundation
import Testing

/// The keys undod's log lines carry (`LogKey`, each a constant declared
/// beside the code that logs it) are well formed, each declared once, and
/// each documented in Docs/USING.md's table ("The log") and in undod(1)'s
/// LOG section; neither documents a key undod does not write.
@Suite struct LogKeyDocsTests {
    /// Every `static let … = LogKey("…")` under Sources/, in file order.
    static func declaredKeys() throws -> [String] {
        let sources = Repository.file("Sources")
        let files = (FileManager.default.enumerator(atPath: sources.path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".swift") }.sorted()
        var keys: [String] = []
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains("static let") {
                guard let start = line.range(of: "LogKey(\""), let end = line[start.upperBound...].firstIndex(of: "\"")
                else { continue }
                keys.append(String(line[start.upperBound..<end]))
            }
        }
        return keys
    }

    /// Words of lowercase letters and digits, joined by `-` within a part, parts joined by `.`; two parts at least.
    static func isWellFormed(_ key: String) -> Bool {
        let parts = key.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count >= 2 && parts.allSatisfy { part in
            part.split(separator: "-", omittingEmptySubsequences: false).allSatisfy { word in
                !word.isEmpty && word.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
            }
        }
    }

    @Test func everyKeyIsWellFormedAndDeclaredOnce() throws {
        let keys = try Self.declaredKeys()
        #expect(keys.count > 50, "the scan found undod's keys: \(keys)")
        #expect(keys.filter { !Self.isWellFormed($0) } == [])
        #expect(Dictionary(grouping: keys) { $0 }.filter { $0.value.count > 1 }.keys.sorted() == [], "declared twice")
    }

    @Test func usingDocumentsEveryKeyAndNoOther() throws {
        let text = try String(contentsOf: Repository.file("Docs/USING.md"), encoding: .utf8)
        let documented = text.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `"), let end = line.dropFirst(3).firstIndex(of: "`") else { return nil }
            return String(line.dropFirst(3)[..<end])
        }
        #expect(Set(try Self.declaredKeys()).subtracting(documented).sorted() == [], "undocumented in USING.md")
        #expect(Set(documented).subtracting(try Self.declaredKeys()).sorted() == [], "documented, but undod has no such key")
        #expect(documented.count == Set(documented).count, "each key once")
    }

    @Test func theManPageDocumentsEveryKeyAndNoOther() throws {
        let page = try String(contentsOf: Repository.file("Docs/undod.1"), encoding: .utf8)
        let section = page.components(separatedBy: "\n.SH LOG\n").dropFirst().first?
            .components(separatedBy: "\n.SH ").first ?? ""
        let lines = section.split(separator: "\n").map(String.init)
        let documented = zip(lines, lines.dropFirst()).compactMap { tag, line -> String? in
            guard tag == ".TP", line.hasPrefix(".B ") else { return nil }
            return line.dropFirst(3).replacingOccurrences(of: "\\-", with: "-")
        }
        #expect(Set(try Self.declaredKeys()).subtracting(documented).sorted() == [], "undocumented in undod(1)")
        #expect(Set(documented).subtracting(try Self.declaredKeys()).sorted() == [], "documented, but undod has no such key")
    }
}
