import JSONText
import Testing

/// The JSON reader undod uses on what sway sends: RFC 8259, refusing what
/// is not JSON with where and why, never trapping, bounded in depth.
@Suite struct JSONParserTests {
    static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try JSONValue(parsing: Array(text.utf8))
    }

    @Test func valuesOfEveryKind() throws {
        let value = try Self.parse(#" { "a": [1, -2, 3.5, 1e3, true, false, null], "b": {"c": "d"}, "e": [] } "#)
        #expect(value["a"]?.elements == [.int(1), .int(-2), .double(3.5), .double(1000), .bool(true), .bool(false), .null])
        #expect(value["b"]?["c"]?.stringValue == "d")
        #expect(value["e"]?.elements == [])
        #expect(value["missing"] == nil)
        #expect(try Self.parse("18446744073709551615") == .uint(UInt64.max))
        #expect(try Self.parse("-9223372036854775808").intValue == Int64.min)
    }

    @Test func stringsWithEveryEscape() throws {
        #expect(try Self.parse(#""a\"b\\c\/d\b\f\n\r\t""#).stringValue == "a\"b\\c/d\u{8}\u{C}\n\r\t")
        #expect(try Self.parse(#""\u00e9\u4e2d""#).stringValue == "é中")
        #expect(try Self.parse(#""\ud83d\ude00""#).stringValue == "😀", "a surrogate pair is one scalar")
        #expect(try Self.parse("\"é\"").stringValue == "é", "UTF-8 as it is")
    }

    @Test func whatItWritesItReads() throws {
        let value = JSONValue.object(["k": .array([.string("q\"\n"), .int(-5), .uint(UInt64.max), .bool(true), .null])])
        #expect(try Self.parse(value.text) == value)
    }

    @Test(arguments: [
        ("", "expected a value"), ("[1,]", "expected a value"), ("{\"a\" 1}", "expected :"),
        ("[1 2]", "expected , or ]"), ("{\"a\":1,}", "expected a member's name"), ("\"abc", "unterminated string"),
        ("\"\\x\"", "an unknown escape"), ("\"\u{1}\"", "a control character in a string"),
        ("\"\\ud800\"", "a lone surrogate"), ("\"\\u12\"", "a short \\u escape"), ("\"\\u12G4\"", "a bad \\u escape"), ("tru", "expected true"),
        ("1 2", "text after the value"), ("-", "expected a value"), ("1e999", "a bad number"),
    ])
    func whatIsNotJSONIsRefusedWithWhereAndWhy(text: String, reason: String) {
        #expect(throws: JSONParseError.self) { try Self.parse(text) }
        do {
            _ = try Self.parse(text)
        } catch {
            #expect(error.reason == reason, "\(text): \(error)")
        }
    }

    @Test func nestingIsBounded() throws {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(throws: JSONParseError.self) { try Self.parse(deep) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(try Self.parse(fine).elements?.count == 1)
    }

    @Test func bytesThatAreNotUTF8AreRefused() {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: [0x22, 0xFF, 0x22]) }
    }
}
