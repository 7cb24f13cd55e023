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
    static func script(_ shell: String, _ f: DaemonFixture) throws -> String {
        let result = try f.undoctlBare(["completion", shell])
        result.expectSuccess()
        let file = f.bus.directory.appendingPathComponent("undoctl.\(shell)")
        try result.output.write(to: file, atomically: false, encoding: .utf8)
        return file.path
    }

    @Test func bashAcceptsTheScript() throws {
        let f = try DaemonFixture(daemon: false)
        let path = try Self.script("bash", f)
        let check = try runTool(["bash", "-n", path])
        #expect(check.status == 0, "bash -n: \(check.errors)")
    }

    @Test(.enabled(if: CompletionTests.installed("zsh"), "zsh is not installed on this machine"))
    func zshAcceptsTheScript() throws {
        let f = try DaemonFixture(daemon: false)
        let check = try runTool(["zsh", "-n", try Self.script("zsh", f)])
        #expect(check.status == 0, "zsh -n: \(check.errors)")
    }

    @Test(.enabled(if: CompletionTests.installed("fish"), "fish is not installed on this machine"))
    func fishAcceptsTheScript() throws {
        let f = try DaemonFixture(daemon: false)
        let check = try runTool(["fish", "--no-execute", try Self.script("fish", f)])
        #expect(check.status == 0, "fish --no-execute: \(check.errors)")
    }

    @Test func anUnknownShellIsAUsageError() throws {
        let f = try DaemonFixture(daemon: false)
        let result = try f.undoctlBare(["completion", "tcsh"])
        #expect(result.status == 2)
        #expect(result.errors.contains("choose bash, zsh or fish"))
        #expect(try f.undoctlBare(["completion"]).status == 2)
    }

    /// What bash's completion offers for `line` (the cursor at its end).
    static func complete(_ line: String, script: String, _ f: DaemonFixture) throws -> [String] {
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
        let f = try DaemonFixture()
        try f.app("org.example.Editor")
        try f.app("org.example.Editor", document: "notes.txt")
        try f.app("org.example.Draw")
        let script = try Self.script("bash", f)
        let address = f.bus.address

        #expect(try Self.complete("undoctl ", script: script, f)
                == ["status", "list", "undo", "redo", "history", "focus", "forget", "watch", "completion", "shell-init",
                    "help"])
        #expect(try Self.complete("undoctl h", script: script, f) == ["history", "help"])
        #expect(try Self.complete("undoctl --js", script: script, f) == ["--json"])
        #expect(try Self.complete("undoctl undo --c", script: script, f) == ["--count"])
        #expect(try Self.complete("undoctl completion ", script: script, f) == ["bash", "zsh", "fish"])
        #expect(try Self.complete("undoctl shell-init ", script: script, f) == ["bash", "zsh", "fish"])
        #expect(try Self.complete("undoctl --address \(address) undo org.example.", script: script, f)
                == ["org.example.Editor:", "org.example.Editor:notes.txt", "org.example.Draw"],
                "only TARGETs that resolve: the app's stack without a document is org.example.Editor:")
        #expect(try Self.complete("undoctl --address \(address) history org.example.D", script: script, f)
                == ["org.example.Draw"])
        // Bash replaces only what follows the colon.
        #expect(try Self.complete("undoctl --address=\(address) focus org.example.Editor:n", script: script, f)
                == ["notes.txt"])
        #expect(try Self.complete("undoctl undo -n ", script: script, f).isEmpty, "a count is not completed")
        #expect(try Self.complete("undoctl list ", script: script, f).isEmpty)
    }

    /// What zsh's completion offers for the words of `line` (the last one
    /// being completed), with the completion system's builtins replaced by
    /// stubs that print what they are given.
    static func completeInZsh(_ line: String, script: String, _ f: DaemonFixture) throws -> [String] {
        let program = """
            compdef() { }
            compadd() {
              local -a all
              while [[ $1 == -* ]]; do
                [[ $1 == -- ]] && { shift; break }
                [[ $1 == -a ]] && { shift; all+=("${(@P)1}") }
                shift
              done
              print -l -- "${all[@]}" "$@"
            }
            _describe() { local name=${@[-1]}; print -l -- "${(@P)name}" }
            _message() { print -- "message: $1" }
            source "$1"
            words=("${(@s: :)2}")
            CURRENT=${#words}
            PREFIX=${words[CURRENT]}
            _undoctl
            """
        let result = try runTool(["zsh", "-f", "-c", program, "zsh", script, line], loop: f.loop,
                                 environment: ["PATH": Self.pathWithUndoctl])
        #expect(result.status == 0, "zsh: \(result.errors)")
        return result.output.split(separator: "\n").map(String.init)
    }

    /// PATH with the built undoctl first, as the scripts call `undoctl list -q`.
    static var pathWithUndoctl: String {
        DaemonProcess.undoctl.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")
    }

    /// undod with two stacks of org.example.Editor, and the path of undoctl's
    /// completion script for `shell`, written where that shell can read it.
    static func editorStacksAndScript(for shell: String) throws -> (DaemonFixture, String) {
        let f = try DaemonFixture()
        try f.app("org.example.Editor")
        try f.app("org.example.Editor", document: "notes.txt")
        let script = f.bus.directory.appendingPathComponent("undoctl.\(shell)").path
        try f.undoctlBare(["completion", shell]).output.write(toFile: script, atomically: false, encoding: .utf8)
        return (f, script)
    }

    @Test(.enabled(if: CompletionTests.installed("zsh"), "zsh is not installed on this machine"))
    func zshCompletesCommandsOptionsAndTargetsFromUndod() throws {
        let (f, script) = try Self.editorStacksAndScript(for: "zsh")

        let commands = try Self.completeInZsh("undoctl ", script: script, f)
        #expect(commands.first == "status:show what undo and redo would do now (the default command)")
        #expect(commands.count == 11)
        #expect(try Self.completeInZsh("undoctl --address \(f.bus.address) undo ", script: script, f)
                == ["org.example.Editor:", "org.example.Editor:notes.txt"])
        #expect(try Self.completeInZsh("undoctl list --", script: script, f).contains {
            $0.hasPrefix("--quiet:") })
        #expect(try Self.completeInZsh("undoctl completion ", script: script, f) == ["bash", "zsh", "fish"])
        #expect(try Self.completeInZsh("undoctl undo -n ", script: script, f) == ["message: value"])
    }

    @Test(.enabled(if: CompletionTests.installed("fish"), "fish is not installed on this machine"))
    func fishCompletesCommandsOptionsAndTargetsFromUndod() throws {
        let (f, script) = try Self.editorStacksAndScript(for: "fish")
        func complete(_ line: String) throws -> [String] {
            let result = try runTool(["fish", "--no-config", "-c", "source $argv[1]; complete -C $argv[2]",
                                      script, line], loop: f.loop,
                                     environment: ["PATH": Self.pathWithUndoctl, "HOME": f.bus.directory.path])
            #expect(result.status == 0, "fish: \(result.errors)")
            return result.output.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        #expect(try complete("undoctl ").sorted()
                == ["completion", "focus", "forget", "help", "history", "list", "redo", "shell-init", "status", "undo",
                    "watch"])
        #expect(try complete("undoctl --address \(f.bus.address) undo org.").sorted()
                == ["org.example.Editor:", "org.example.Editor:notes.txt"])
        #expect(try complete("undoctl undo --c") == ["--count"])
        #expect(try complete("undoctl completion ").sorted() == ["bash", "fish", "zsh"])
    }
}
