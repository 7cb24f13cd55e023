import BusHarness
import Foundation

/// An interactive bash, zsh or fish of `ShellFixture`'s session on a
/// pseudo-terminal of its own (`Tests/Clients/pty_shell.py`), typed into
/// line by line as a person types, each line answered with its exit status
/// and what the terminal showed.
final class PtyShell {
    let process: ScriptedProcess
    let kind: String

    /// The shell `kind` started in the fixture's working folder, answering.
    init(_ kind: String, of s: ShellFixture) throws {
        self.kind = kind
        process = try ScriptedProcess(["/usr/bin/python3", Repository.client("pty_shell.py"), kind, s.work],
                                      environment: s.environment, loop: s.f.loop)
        _ = try process.next(event: "ready", timeout: 30_000)
    }

    /// Types `line` and waits for it to end: its status, what the terminal
    /// showed, and how long it took (s).
    @discardableResult
    func type(_ line: String) throws -> (status: Int, output: String, seconds: Double) {
        let start = Date()
        send(line)
        let done = try process.next(event: "done", timeout: 40_000)
        return (done["status"] as? Int ?? -1, done["output"] as? String ?? "", Date().timeIntervalSince(start))
    }

    /// Types `line` without waiting (`ended` waits).
    func send(_ line: String) {
        process.send(["cmd": "type", "line": line])
    }

    /// Waits for the line `send` typed to end.
    func ended() throws {
        _ = try process.next(event: "done", timeout: 40_000)
    }

    /// Loads the integration as its start-up file would: the status.
    func loadIntegration() throws -> Int {
        try type(kind == "fish" ? "undoctl shell-init fish | source" : "eval \"$(undoctl shell-init \(kind))\"").status
    }
}
