import SafeText
import Testing
import UndoCore

@Suite("Errors")
struct UndoErrorTests {
    @Test("every error maps to its spec name and a sentence that names the stack and says what to do", arguments: [
        (UndoError.invalidAppId("bad id"), "InvalidAppId", "“bad id”"),
        (.invalidName(.empty), "InvalidName", "empty name"),
        (.invalidName(.tooLong(300)), "InvalidName", "300 characters"),
        (.invalidName(.controlCharacter), "InvalidName", "control character"),
        (.payloadTooLarge(bytes: 12, maxBytes: 10), "PayloadTooLarge", "12 bytes"),
        (.emptyGroup, "EmptyGroup", "no actions"),
        (.nothingToUndo, "NothingToUndo", "nothing to undo"),
        (.nothingToRedo, "NothingToRedo", "nothing to redo"),
        (.busy(.undo), "Busy", "busy applying an undo"),
        (.busy(.redo), "Busy", "busy applying a redo"),
        (.groupIDsExhausted, "StorageFailed", "every group id"),
    ])
    func nameAndSentence(error: UndoError, name: String, fragment: String) {
        #expect(error.name == name)
        let sentence = error.sentence(stack: "Text Editor (stack 3)")
        #expect(sentence.contains("Text Editor (stack 3)"))
        #expect(sentence.contains(fragment))
        #expect(sentence.hasSuffix("."))
        #expect(!sentence.contains("\n"))
        #expect(sentence.contains(":"), "the sentence goes on to say what to do")
        #expect(error.description == error.sentence(stack: "the stack"))
    }

    @Test("an app id in a sentence is quoted, escaped and cut at 256 characters")
    func quotedAppId() {
        let long = "a\nb“c\u{1B}[31m" + String(repeating: "z", count: 1 << 20)
        let sentence = UndoError.invalidAppId(long).sentence(stack: "S")
        #expect(sentence.contains("“a\\nb\\u{201C}c\\u{1B}[31m"))
        #expect(sentence.contains("…”"))
        #expect(!sentence.contains("\n") && !sentence.contains("\u{1B}"))
        #expect(sentence.contains(String(repeating: "z", count: 256 - 10)))
        #expect(!sentence.contains(String(repeating: "z", count: 256 - 8)))
        #expect(sentence.count < 600)
    }

    @Test("caller text: short text kept as it is, separators escaped")
    func callerText() {
        #expect(CallerText.quoted("Typing") == "“Typing”")
        #expect(CallerText.escaped("a\u{2028}b\tc") == "a\\u{2028}b\\tc")
        #expect(CallerText.escaped(String(repeating: "é", count: 256)) == String(repeating: "é", count: 256))
        #expect(CallerText.escaped(String(repeating: "é", count: 257)) == String(repeating: "é", count: 256) + "…")
    }
}
