import BusHarness
import DBus
import Foundation
import Loop
import Testing

/// `undoctl watch`: one line per event, flushed as it happens, until
/// interrupted.
@Suite struct WatchTests {
    @Test func watchJSONFollowsEveryKindOfEventLive() throws {
        let f = try DaemonFixture()
        let editor = try f.app("org.example.Editor", title: "Text Editor", pushing: ["Paste"])
        let watch = try WatchProcess(f, json: true)
        defer { watch.kill() }

        // The first line is the focus as it is.
        let start = try watch.nextObject()
        #expect(start["event"] as? String == "focus")
        #expect((start["stack"] as? [String: Any])?["path"] as? String == editor.stack)
        #expect(start["time_us"] as? Int != nil)

        let group = try editor.push("Typing")
        let pushed = try watch.nextObject()
        #expect(pushed["event"] as? String == "pushed")
        #expect(pushed["name"] as? String == "Typing")
        #expect(pushed["group"] as? Int == Int(group))
        #expect(pushed["merged"] as? Bool == false)
        let stack = try #require(pushed["stack"] as? [String: Any])
        #expect(stack["path"] as? String == editor.stack && stack["title"] as? String == "Text Editor")
        #expect(stack["undo_name"] as? String == "Typing" && stack["undo_depth"] as? Int == 2)
        #expect(Set(stack.keys) == StackSchema.keys)

        try editor.push("Typing more", hints: ["merge_key": .string("typing")])
        try editor.push("Typing more", hints: ["merge_key": .string("typing"), "merge_window_ms": .uint32(600_000)])
        #expect(try watch.nextObject()["merged"] as? Bool == false)
        let merged = try watch.nextObject()
        #expect(merged["event"] as? String == "pushed" && merged["merged"] as? Bool == true)

        _ = try editor.call("Undo")
        let undone = try watch.nextObject()
        #expect(undone["event"] as? String == "applied")
        #expect(undone["direction"] as? String == "undo")
        #expect(undone["name"] as? String == "Typing more")
        _ = try editor.call("Redo")
        #expect(try watch.nextObject()["direction"] as? String == "redo")

        let draw = try f.app("org.example.Draw", title: "Drawing")
        let added = try watch.nextObject()
        #expect(added["event"] as? String == "added")
        #expect((added["stack"] as? [String: Any])?["path"] as? String == draw.stack)
        #expect((added["stack"] as? [String: Any])?["app_id"] as? String == "org.example.Draw")
        let focus = try watch.nextObject()
        #expect(focus["event"] as? String == "focus")
        #expect((focus["stack"] as? [String: Any])?["title"] as? String == "Drawing")

        try f.quit(draw)
        let back = try watch.nextObject()
        #expect(back["event"] as? String == "focus", "focus falls back when Drawing detaches")
        #expect((back["stack"] as? [String: Any])?["path"] as? String == editor.stack)
        try f.undoctl(["forget", draw.stack]).expectSuccess()
        let removed = try watch.nextObject()
        #expect(removed["event"] as? String == "removed")
        #expect((removed["stack"] as? [String: Any])?["title"] as? String == "Drawing")

        try f.quit(editor)
        let none = try watch.nextObject()
        #expect(none["event"] as? String == "focus")
        #expect(none["stack"] is NSNull, "no stack has the focus")

        #expect(watch.interrupt(SIGINT) == 0, "SIGINT ends watch with status 0")
        #expect(watch.remainder().isEmpty)
    }

    @Test func watchTextIsOneReadableLinePerEvent() throws {
        let f = try DaemonFixture()
        let watch = try WatchProcess(f, json: false)
        defer { watch.kill() }
        #expect(try watch.nextLine().hasSuffix("  focus    none"))

        let editor = try f.app("org.example.Editor", title: "Text Editor")
        let n = number(of: editor.stack)
        #expect(try watch.nextLine().hasSuffix("  added    Text Editor (stack \(n)), org.example.Editor"))
        #expect(try watch.nextLine().hasSuffix("  focus    Text Editor (stack \(n))"))
        let group = try editor.push("Typing")
        #expect(try watch.nextLine().hasSuffix("  pushed   \"Typing\" in Text Editor (stack \(n)), group \(group)"))
        try f.undoctl(["undo"]).expectSuccess()
        let line = try watch.nextLine()
        #expect(line.hasSuffix("  undid    \"Typing\" in Text Editor (stack \(n))"))
        let time = line.prefix(8)
        #expect(time.split(separator: ":").count == 3, "each line starts with the time: \(line)")

        #expect(watch.interrupt(SIGTERM) == 0, "SIGTERM ends watch with status 0")
    }

    @Test func watchFollowsUndodAcrossARestart() throws {
        let f = try DaemonFixture()
        let watch = try WatchProcess(f, json: true)
        defer { watch.kill() }
        #expect(try watch.nextObject()["event"] as? String == "focus")
        try f.app("org.example.Draw", title: "Drawing")
        #expect(try watch.nextObject()["event"] as? String == "added")
        #expect(try watch.nextObject()["event"] as? String == "focus")
        f.daemon?.signal(SIGTERM)
        #expect(f.daemon?.waitForExit(loop: f.loop) == 0)
        let stopped = try watch.nextObject()
        #expect(stopped["event"] as? String == "daemon" && stopped["running"] as? Bool == false)
        #expect(stopped["version"] is NSNull)
        let lost = try watch.nextObject()
        #expect(lost["event"] as? String == "focus" && lost["stack"] is NSNull, "the focus went with undod")

        f.daemon = try DaemonProcess(bus: f.bus, loop: f.loop, watcher: f.watcher)
        let started = try watch.nextObject()
        #expect(started["event"] as? String == "daemon" && started["running"] as? Bool == true)
        #expect(started["version"] as? String == "0.1.0")
        let restored = try watch.nextObject()
        #expect(restored["event"] as? String == "added", "the stored stack comes back")
        #expect((restored["stack"] as? [String: Any])?["title"] as? String == "Drawing")
        #expect((restored["stack"] as? [String: Any])?["detached"] as? Bool == true)
        #expect(try watch.nextObject()["event"] as? String == "focus")
        let editor = try f.app("org.example.Editor", title: "Text Editor")
        let added = try watch.nextObject()
        #expect(added["event"] as? String == "added", "signals of the new undod are followed")
        #expect((added["stack"] as? [String: Any])?["path"] as? String == editor.stack)
        #expect(watch.interrupt(SIGINT) == 0)
    }

    @Test func watchExits3WhenTheBusGoesAway() throws {
        let f = try DaemonFixture()
        let watch = try WatchProcess(f, json: false)
        defer { watch.kill() }
        #expect(try watch.nextLine().hasSuffix("focus    none"))
        f.watcher.close()
        f.daemon?.stop()
        f.bus.stop()
        #expect(watch.waitForExit() == 3, "no bus: exit 3")
    }

    /// Started before undod, watch waits for it (as `playerctl --follow`
    /// waits for a player) and follows it once it is there.
    @Test func watchStartedBeforeUndodWaitsForIt() throws {
        let f = try DaemonFixture(daemon: false)
        let watch = try WatchProcess(f, json: true)
        defer { watch.kill() }
        let none = try watch.nextObject()
        #expect(none["event"] as? String == "focus" && none["stack"] is NSNull, "no focus while undod is away")
        f.daemon = try DaemonProcess(bus: f.bus, loop: f.loop, watcher: f.watcher)
        let started = try watch.nextObject()
        #expect(started["event"] as? String == "daemon" && started["running"] as? Bool == true)
        #expect(try watch.nextObject()["event"] as? String == "focus")
        let editor = try f.app("org.example.Editor", title: "Text Editor")
        let added = try watch.nextObject()
        #expect(added["event"] as? String == "added")
        #expect((added["stack"] as? [String: Any])?["path"] as? String == editor.stack)
        #expect(watch.interrupt(SIGINT) == 0)
    }
}

extension WatchTests {
    /// Without undod, watch says on standard error that it waits (a silent
    /// watch looks hung), terminal or not.
    @Test func watchWithoutUndodSaysItIsWaiting() throws {
        let f = try DaemonFixture(daemon: false)
        let watch = try WatchProcess(f, json: false, withErrors: true)
        defer { watch.kill() }
        let lines = [try watch.nextLine(), try watch.nextLine()]
        #expect(lines.contains("undoctl: undod is not running on this bus; waiting for it to start (Ctrl-C to stop)"),
                "\(lines)")
    }

    /// Text `watch` (on a terminal when `onTerminal`) from its first line,
    /// and a Text Editor that registered and typed three merged "Typing"
    /// changes; the fixture is returned to be kept alive.
    static func watchingTyping(onTerminal: Bool) throws -> (DaemonFixture, WatchProcess, TestApp) {
        let f = try DaemonFixture()
        let watch = try WatchProcess(f, json: false, onTerminal: onTerminal)
        #expect(try watch.nextLine().hasSuffix("focus    none"))
        let editor = try f.app("org.example.Editor", title: "Text Editor")
        _ = try watch.nextLine()   // added
        _ = try watch.nextLine()   // focus
        let typing: [String: DBusValue] = ["merge_key": .string("typing")]
        for _ in 0..<3 { try editor.push("Typing", hints: typing) }
        return (f, watch, editor)
    }

    /// Piped, a run of merges into one group is one line with its count,
    /// written when the run ends: at the next event, or after a second of quiet.
    @Test func pipedMergesFoldIntoOneLineWhenTheRunEnds() throws {
        let (f, watch, editor) = try Self.watchingTyping(onTerminal: false)
        defer { withExtendedLifetime(f) { watch.kill() } }
        try editor.push("Paste")
        #expect(try watch.nextLine().contains("pushed   \"Typing\" in Text Editor"))
        #expect(try watch.nextLine().hasSuffix("merged   \"Typing\" into group 1 in Text Editor (stack 1), 3 changes"))
        #expect(try watch.nextLine().contains("pushed   \"Paste\""))
        // A run that goes quiet is written without another event.
        try editor.push("More", hints: ["merge_key": .string("more")])
        try editor.push("More", hints: ["merge_key": .string("more")])
        #expect(try watch.nextLine().contains("pushed   \"More\""))
        #expect(try watch.nextLine().hasSuffix(", 2 changes"))
    }

    /// On a terminal, a run of merges into one group is one line, rewritten
    /// in place with its count.
    @Test func onATerminalMergesFoldIntoOneLineWithACount() throws {
        let (f, watch, editor) = try Self.watchingTyping(onTerminal: true)
        defer { withExtendedLifetime(f) { watch.kill() } }
        #expect(try watch.nextLine().contains("pushed   \"Typing\" in Text Editor"))
        let rewrite = "\u{1B}[1A\u{1B}[2K"
        let second = try watch.nextLine()
        #expect(second.hasPrefix(rewrite) && second.hasSuffix("merged   \"Typing\" into group 1 in Text Editor (stack 1), 2 changes"),
                "\(second.debugDescription)")
        #expect(try watch.nextLine().hasSuffix(", 3 changes"))
        try editor.push("Paste")
        let paste = try watch.nextLine()
        #expect(!paste.hasPrefix(rewrite) && paste.contains("pushed   \"Paste\""), "\(paste.debugDescription)")
    }
}

/// `undoctl watch` running as a child whose standard output the test reads
/// line by line, as it comes, while the loop serves the test's apps.
final class WatchProcess {
    private let fixture: DaemonFixture
    private let process = Process()
    private let pipe = Pipe()
    private var token: EventLoop.Token?
    private var buffer: [UInt8] = []
    private var lines: [String] = []
    private var ended = false
    /// Marks watch's exit and wakes the loop (`ExitWatch`).
    private var exitWatch: ExitWatch?

    /// `undoctl watch` (with `--json` when `json`); its standard error
    /// joins the lines read when `withErrors`; with `onTerminal`, it runs
    /// on a terminal of its own, 200 columns wide (`script`), and the lines
    /// read are what the terminal was sent, escape sequences included.
    init(_ fixture: DaemonFixture, json: Bool, withErrors: Bool = false, onTerminal: Bool = false) throws {
        self.fixture = fixture
        let arguments = ["--address", fixture.bus.address] + (json ? ["--json"] : []) + ["watch"]
        if onTerminal {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.arguments = ["-q", "-e", "-c", "stty cols 200; exec '\(DaemonFixture.undoctlBinary)' "
                                 + arguments.map { "'\($0)'" }.joined(separator: " "), "/dev/null"]
        } else {
            process.executableURL = URL(fileURLWithPath: DaemonFixture.undoctlBinary)
            process.arguments = arguments
        }
        process.standardOutput = pipe
        process.standardError = withErrors ? pipe : FileHandle.nullDevice
        let loop = fixture.loop
        exitWatch = try ExitWatch(running: process, waking: loop)
        let fd = pipe.fileHandleForReading.fileDescriptor
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        token = loop.watch(fd: fd, events: .readable) { [unowned self] in self.readAvailable(fd) }
    }

    private func readAvailable(_ fd: Int32) {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &chunk, chunk.count)
            if count == 0 {
                ended = true
                if let token { fixture.loop.remove(token) }
                token = nil
                return
            }
            guard count > 0 else { return }
            buffer += chunk[0..<count]
            while let newline = buffer.firstIndex(of: 10) {
                var line = String(decoding: buffer[..<newline], as: UTF8.self)
                if line.hasSuffix("\r") { line.removeLast() }   // a terminal's line end
                lines.append(line)
                buffer.removeSubrange(...newline)
            }
        }
    }

    /// The next line watch prints, waiting for it at most `timeout` ms.
    func nextLine(timeout: Int = 10_000) throws -> String {
        guard fixture.wait(timeout: timeout, until: { !lines.isEmpty || ended }), !lines.isEmpty else {
            throw HarnessError("watch printed no line within \(timeout) ms")
        }
        return lines.removeFirst()
    }

    /// The next line as a JSON object.
    func nextObject(timeout: Int = 10_000) throws -> [String: Any] {
        let line = try nextLine(timeout: timeout)
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw HarnessError("not a JSON object: \(line)")
        }
        return object
    }

    /// Sends `signal` and waits (at most 10 s) for watch to exit; its status.
    func interrupt(_ signal: Int32) -> Int32? {
        Foundation.kill(process.processIdentifier, signal)
        return waitForExit()
    }

    /// Waits (at most 10 s) for watch to exit by itself; its status.
    func waitForExit() -> Int32? {
        guard let exitWatch, fixture.wait(until: { exitWatch.hasExited }),
              let termination = exitWatch.termination else { return nil }
        _ = fixture.wait(timeout: 2_000) { ended }
        return termination.bySignal ? nil : termination.status
    }

    /// Lines not yet taken.
    func remainder() -> [String] { lines }

    /// Kills watch if it still runs.
    func kill() {
        if let token { fixture.loop.remove(token) }
        token = nil
        exitWatch?.kill()
    }
}
