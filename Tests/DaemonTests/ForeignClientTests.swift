import BusHarness
import DBus
import Foundation
import Testing

/// Clients that know only the spec: python3-dbus in its own process.
@Suite struct ForeignClientTests {
    /// Runs `Tests/Clients/<script>` against a fresh undod; the JSON object it printed.
    static func run(_ script: String) throws -> [String: Any]? {
        let f = try DaemonFixture()
        let path = Repository.root.appendingPathComponent("Tests/Clients/\(script)").path
        let run = try runTool(["/usr/bin/python3", path, f.bus.address], loop: f.loop)
        #expect(run.status == 0, "\(run.errors)")
        return try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
    }

    @Test func aPythonClientDoesTheFullCycle() throws {
        let object = try Self.run("python_client.py")
        let applied = object?["applied"] as? [[String: Any]] ?? []
        let letters = { (bytes: Any?) -> [String] in
            (bytes as? [[Int]] ?? []).map { String(decoding: $0.map(UInt8.init), as: UTF8.self) }
        }
        #expect(applied.count == 2)
        #expect(applied.first?["direction"] as? String == "undo")
        #expect(letters(applied.first?["payloads"]) == ["u3", "u2", "u1"])
        #expect(applied.last?["direction"] as? String == "redo")
        #expect(letters(applied.last?["payloads"]) == ["r1", "r2", "r3"])
        let group = object?["group"] as? Int
        #expect((object?["undo"] as? [Any])?.first as? Int == group)
        #expect((object?["redo"] as? [Any])?.last as? String == "Paste")
        #expect(object?["can_redo"] as? Bool == true)
        #expect(object?["undo_name"] as? String == "Paste")
        #expect((object?["errors"] as? [Any])?.isEmpty == true)
        #expect(object?["empty_name_error"] as? String == "org.undod.Undo1.Error.InvalidName")
    }

    @Test func anOptionOrHintOfAnotherTypeAFileDescriptorIncludedIsInvalidArgs() throws {
        let object = try Self.run("wrong_types.py")
        let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs: "
        for key in ["register_fd", "register_string", "push_fd", "push_window_fd"] {
            let error = object?[key] as? String ?? ""
            #expect(error.hasPrefix(invalidArgs), "\(key): \(error)")
        }
        #expect((object?["register_fd"] as? String)?.contains("limit must be of type u, not h") == true)
        #expect((object?["push_fd"] as? String)?.contains("merge_key must be of type s, not h") == true)
        #expect(object?["undo_depth"] as? Int == 1, "the refused pushes changed nothing")
        #expect(object?["ping"] as? String == "", "undod still answers")
        #expect(object?["fd_closed"] as? Bool == true, "undod closed the fds the calls brought")
    }
}
