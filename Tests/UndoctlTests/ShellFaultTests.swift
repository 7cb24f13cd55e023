import BusHarness
import DBus
import Foundation
import Testing

/// The shell's undo killed halfway, as the store's fault tests kill undod:
/// the agent (undod-files) or undod SIGKILLed at a random moment of a
/// 1,000-file `rm -r` or `mv`, or of its undo. After each kill, and after
/// the undo is tried again, every one of the 1,000 files is in exactly one
/// place — where it was, where it was going, or the trash — with its bytes:
/// none lost, none twice.
@Suite struct ShellFaultTests {
    /// What is killed, and when: the command or its undo.
    enum Moment: CaseIterable {
        case remove, undoOfRemove, move, undoOfMove
    }

    @Test(arguments: ["agent", "undod"])
    func aKillAtARandomMomentLosesNoFileAndDuplicatesNone(_ victim: String) throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<8 {
            let moment = Moment.allCases[round % Moment.allCases.count]
            let s = try ShellFixture()
            let expected = try Self.makeTree(in: s.work)
            // One interactive bash throughout: the command, its undo and
            // the undo tried again all act on that shell's own stack.
            let shell = try PtyShell("bash", of: s)
            let type = shell.type
            #expect(try shell.loadIntegration() == 0)
            // The agent runs before the command (this records through it),
            // so that there is one to kill at any moment.
            let warmUp = try type("touch warm-up")
            #expect(warmUp.status == 0, "\(warmUp.output)")
            let command = moment == .remove || moment == .undoOfRemove ? "rm -r d*" : "mkdir moved && mv d* moved/"
            var window = warmUp.seconds
            if moment == .undoOfRemove || moment == .undoOfMove {
                let ran = try type(command)
                #expect(ran.status == 0, "\(ran.output)")
                window = ran.seconds
            }
            let killed = moment == .remove || moment == .move ? command : "undoctl undo"
            let pid = victim == "undod" ? s.f.daemon.pid : try Self.agentPid(s)
            // The kill's moment, at random within how long such a line takes.
            let delay = UInt32.random(in: 0...UInt32(window * 1_000_000), using: &generator)
            shell.send(killed)
            usleep(delay)
            kill(pid, SIGKILL)
            try shell.ended()
            // undod gone, the agent may still be replaying: killed too, at
            // that moment, so that the files stand still to be counted.
            if victim == "undod" { try Self.killAgent(s) }
            Self.expectEachFileOnce(expected, in: s, "round \(round): \(victim) killed \(delay) µs into \(killed)")
            if victim == "undod" { try s.f.restart(crash: true) }
            // Whatever it answers (undone, obsolete, no agent yet), nothing is lost.
            _ = try type("undoctl undo")
            Self.expectEachFileOnce(expected, in: s, "round \(round): the undo tried again after \(killed)")
            try s.f.ping()
        }
    }

    /// Ten folders of 100 files each, every file's bytes its own path:
    /// the bytes expected, by file.
    static func makeTree(in work: String) throws -> Set<String> {
        var made: Set<String> = []
        for folder in 0..<10 {
            try FileManager.default.createDirectory(atPath: work + "/d\(folder)", withIntermediateDirectories: true)
            for file in 0..<100 {
                let text = "d\(folder)/f\(file)"
                try Data(text.utf8).write(to: URL(fileURLWithPath: work + "/" + text))
                made.insert(text)
            }
        }
        return made
    }

    /// Every regular file's bytes under the working folder and in the
    /// trash, each expected file's exactly once.
    static func expectEachFileOnce(_ expected: Set<String>, in s: ShellFixture, _ comment: String,
                                   sourceLocation: SourceLocation = #_sourceLocation) {
        var counts: [String: Int] = [:]
        for top in [s.work, s.home + "/.local/share/Trash/files"] {
            guard let walker = FileManager.default.enumerator(atPath: top) else { continue }
            for case let name as String in walker {
                var info = stat()
                guard lstat(top + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
                      let bytes = FileManager.default.contents(atPath: top + "/" + name) else { continue }
                let text = String(decoding: bytes, as: UTF8.self)
                if expected.contains(text) { counts[text, default: 0] += 1 }
            }
        }
        let lost = expected.filter { counts[$0] == nil }
        let twice = counts.filter { $0.value > 1 }.keys
        #expect(lost.isEmpty && twice.isEmpty,
                "\(comment): \(lost.count) lost (\(lost.sorted().prefix(3))), \(twice.count) twice",
                sourceLocation: sourceLocation)
    }

    /// Kills the agent, if it runs, and waits until the bus saw it go.
    static func killAgent(_ s: ShellFixture) throws {
        var gone = false
        let subscription = s.f.watcher.subscribe(.nameOwnerChanged(name: "org.undod.Files1")) { message in
            if message.arguments.last?.string == "" { gone = true }
        }
        defer { s.f.watcher.unsubscribe(subscription) }
        guard let pid = try? agentPid(s) else { return }
        kill(pid, SIGKILL)
        #expect(s.f.wait(timeout: 10_000) { gone }, "the agent is gone")
    }

    /// The agent's process, as the bus knows it.
    static func agentPid(_ s: ShellFixture) throws -> pid_t {
        let reply = try s.f.watcher.callAndWait(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                                interface: "org.freedesktop.DBus", member: "GetConnectionUnixProcessID",
                                                arguments: [.string("org.undod.Files1")])
        guard let pid = reply.first?.uint32 else { throw HarnessError("no pid for org.undod.Files1") }
        return pid_t(pid)
    }
}
