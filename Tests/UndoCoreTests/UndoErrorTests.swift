import Testing
import UndoCore

@Suite("Errors")
struct UndoErrorTests {
    @Test("every error maps to its spec name and a sentence that names the stack and says what to do", arguments: [
        (UndoError.invalidAppId("bad id"), "InvalidAppId", "\"bad id\""),
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

    @Test("an app id in a sentence is quoted, escaped and cut")
    func quotedAppId() {
        let sentence = UndoError.invalidAppId("a\nb\"c" + String(repeating: "z", count: 100)).sentence(stack: "S")
        #expect(sentence.contains("\"a\\nb\\\"c"))
        #expect(sentence.contains("…\""))
        #expect(!sentence.contains("\n"))
        #expect(!sentence.contains(String(repeating: "z", count: 62)))
    }
}
