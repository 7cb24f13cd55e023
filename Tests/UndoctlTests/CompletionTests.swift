import BusHarness
import DBus
import Foundation
import Testing

/// `undoctl completion bash|zsh|fish`.
@Suite struct CompletionTests {
    /// Whether `shell` is on PATH.
    static func installed(_ shell: String) -> Bool {
        ((try? runTool(["sh", "-c", "command -v \(shell)"]))?.status ?? 1) == 0
    }

    /// Writes undoctl's script for `shell` to a file and returns its path.
    static func script(_ shell: String, _ f: CtlFixture) throws -> String {
        let result = try f.undoctlBare(["completion", shell])
        result.expectSuccess()
        let file = f.bus.directory.appendingPathComponent("undoctl.\(shell)")
        try result.output.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    @Test func bashAcceptsTheScript() throws {
        let f = try CtlFixture(daemon: false)
        let path = try Self.script("bash", f)
        let check = try runTool(["bash", "-n", path])
        #expect(check.status == 0, "bash -n: \(check.errors)")
    }

    @Test(.enabled(if: CompletionTests.installed("zsh"), "zsh is not installed on this machine"))
    func zshAcceptsTheScript() throws {
        let f = try CtlFixture(daemon: false)
        let check = try runTool(["zsh", "-n", try Self.script("zsh", f)])
        #expect(check.status == 0, "zsh -n: \(check.errors)")
    }

    @Test(.enabled(if: CompletionTests.installed("fish"), "fish is not installed on this machine"))
    func fishAcceptsTheScript() throws {
        let f = try CtlFixture(daemon: false)
        let check = try runTool(["fish", "--no-execute", try Self.script("fish", f)])
        #expect(check.status == 0, "fish --no-execute: \(check.errors)")
    }

    @Test func anUnknownShellIsAUsageError() throws {
        let f = try CtlFixture(daemon: false)
        let result = try f.undoctlBare(["completion", "tcsh"])
        #expect(result.status == 2)
        #expect(result.errors.contains("choose bash, zsh or fish"))
        #expect(try f.undoctlBare(["completion"]).status == 2)
    }

    /// What bash's completion offers for `line` (the cursor at its end).
    static func complete(_ line: String, script: String, _ f: CtlFixture) throws -> [String] {
        let directory = DaemonProcess.undoctl.deletingLastPathComponent().path
        let program = """
            source "$1"
            COMP_LINE=$2
            COMP_POINT=${#COMP_LINE}
            _undoctl
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try runTool(["bash", "-c", program, "bash", script, line], loop: f.loop,
                                 environment: ["PATH": directory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")])
        #expect(result.status == 0, "bash: \(result.errors)")
        return result.output.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesCommandsOptionsAndTargetsFromUndod() throws {
        let f = try CtlFixture()
        try f.app("org.example.Editor")
        try f.app("org.example.Editor", document: "notes.txt")
        try f.app("org.example.Draw")
        let script = try Self.script("bash", f)
        let address = f.bus.address

        #expect(try Self.complete("undoctl ", script: script, f)
                == ["status", "list", "undo", "redo", "history", "focus", "forget", "watch", "completion", "help"])
        #expect(try Self.complete("undoctl h", script: script, f) == ["history", "help"])
        #expect(try Self.complete("undoctl --js", script: script, f) == ["--json"])
        #expect(try Self.complete("undoctl undo --c", script: script, f) == ["--count"])
        #expect(try Self.complete("undoctl completion ", script: script, f) == ["bash", "zsh", "fish"])
        #expect(try Self.complete("undoctl --address \(address) undo org.example.", script: script, f)
                == ["org.example.Editor", "org.example.Editor:notes.txt", "org.example.Draw"])
        #expect(try Self.complete("undoctl --address \(address) history org.example.D", script: script, f)
                == ["org.example.Draw"])
        // Bash replaces only what follows the colon.
        #expect(try Self.complete("undoctl --address=\(address) focus org.example.Editor:n", script: script, f)
                == ["notes.txt"])
        #expect(try Self.complete("undoctl undo -n ", script: script, f).isEmpty, "a count is not completed")
        #expect(try Self.complete("undoctl list ", script: script, f).isEmpty)
    }
}
