public import DBus
public import Foundation
public import Loop

/// A child process that a test drives with JSON lines on its stdin and that
/// answers with JSON lines on its stdout (the Python clients in
/// `Tests/Clients`): its output is read by the test's loop as it comes, so
/// waiting for a line also serves the test's own bus connections.
public final class ScriptedProcess {
    /// One JSON object the process printed.
    public typealias Line = [String: Any]

    /// Every line printed so far, in order.
    public private(set) var lines: [Line] = []
    /// What the process wrote to stderr so far (for failure messages).
    public var errors: String {
        drain(errorPipe.fileHandleForReading.fileDescriptor, into: &errorBytes)
        return String(decoding: errorBytes, as: UTF8.self)
    }
    /// The process.
    public let process: Process
    /// Marks the process's exit and wakes the loop (`ExitWatch`).
    private var exitWatch: ExitWatch?

    private let loop: EventLoop
    private let input = Pipe()
    private let output = Pipe()
    private let errorPipe = Pipe()
    private var pending: [UInt8] = []
    private var errorBytes: [UInt8] = []
    private var watch: EventLoop.Token?
    /// The lines already handed to a caller by `next`.
    private var taken: Set<Int> = []
    private let name: String

    /// Starts `arguments` (the first is the program) with `environment`
    /// added to the test's own.
    public init(_ arguments: [String], environment: [String: String] = [:], loop: EventLoop) throws {
        self.loop = loop
        name = URL(fileURLWithPath: arguments.dropFirst().first ?? arguments[0]).lastPathComponent
        process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errorPipe
        for fd in [output.fileHandleForReading.fileDescriptor, errorPipe.fileHandleForReading.fileDescriptor] {
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        }
        exitWatch = try ExitWatch(running: process, waking: loop)
        ChildReaper.watch(process.processIdentifier)
        watch = loop.watch(fd: output.fileHandleForReading.fileDescriptor, events: .readable) { [weak self] in
            self?.readLines()
        }
    }

    deinit {
        stop()
        closeHarnessDescriptors([input.fileHandleForWriting, output.fileHandleForReading,
                                 errorPipe.fileHandleForReading])
    }

    /// Writes `object` as one JSON line to the process's stdin.
    public func send(_ object: Line) {
        guard exitWatch?.hasExited == false, let data = try? JSONSerialization.data(withJSONObject: object) else { return }
        input.fileHandleForWriting.write(data + Data("\n".utf8))
    }

    /// Waits (at most `timeout` ms) for the first line not yet handed out
    /// that satisfies `test`, and hands it out; lines before it stay for
    /// later waits. Throws when none comes.
    @discardableResult
    public func next(timeout: Int = 10_000, _ what: String = "a line",
                     where test: @escaping (Line) -> Bool) throws -> Line {
        var found: Int?
        let search = { self.lines.indices.first { !self.taken.contains($0) && test(self.lines[$0]) } }
        loop.run(until: {
            found = search()
            return found != nil || self.exitWatch?.hasExited == true
        }, timeoutMilliseconds: timeout)
        readLines()
        if found == nil { found = search() }
        guard let found else {
            throw HarnessError("\(name) printed no \(what) within \(timeout) ms; it printed \(lines.suffix(8)) "
                + "and on stderr: \(errors.suffix(2_000))")
        }
        taken.insert(found)
        return lines[found]
    }

    /// The next line whose `event` is `event`.
    @discardableResult
    public func next(event: String, timeout: Int = 10_000) throws -> Line {
        try next(timeout: timeout, "“\(event)” event") { $0["event"] as? String == event }
    }

    /// Sends a command and waits for its reply: the next line that is not
    /// an asynchronous event; an `error` reply throws.
    @discardableResult
    public func command(_ object: Line, timeout: Int = 10_000) throws -> Line {
        send(object)
        let reply = try next(timeout: timeout, "reply to \(object)") { line in
            let event = line["event"] as? String ?? ""
            return !Self.asynchronous.contains(event)
        }
        if reply["event"] as? String == "error" { throw HarnessError("\(name): \(object) failed: \(reply)") }
        return reply
    }

    /// Events a process prints on its own, never as a reply.
    public static let asynchronous: Set<String> = ["apply", "applied", "x11_closed", "session", "bound",
                                                   "session_closed", "request_closed"]

    /// Every line printed so far whose `event` is `event` (taken or not).
    public func all(event: String) -> [Line] {
        readLines()
        return lines.filter { $0["event"] as? String == event }
    }

    /// Stops the process (SIGKILL) if it still runs.
    public func stop() {
        if let watch {
            loop.remove(watch)
            self.watch = nil
        }
        exitWatch?.kill()
        ChildReaper.forget(process.processIdentifier)
    }

    private func readLines() {
        drain(output.fileHandleForReading.fileDescriptor, into: &pending)
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let data = Data(pending[..<newline])
            pending.removeSubrange(...newline)
            if let object = try? JSONSerialization.jsonObject(with: data) as? Line {
                lines.append(object)
            }
        }
    }

    private func drain(_ fd: Int32, into buffer: inout [UInt8]) {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(fd, &chunk, chunk.count)
            guard count > 0 else { return }
            buffer += chunk[0..<count]
        }
    }
}

extension ScriptedProcess {
    /// The Apply calls this application (`x11_app.py`) has served, in order.
    public var applies: [Line] { all(event: "apply") }

    /// Waits for this application's next Apply and returns its direction and payloads.
    public func nextApply(timeout: Int = 10_000) throws -> (direction: String, payloads: [String]) {
        let line = try next(event: "apply", timeout: timeout)
        return (line["direction"] as? String ?? "", line["payloads"] as? [String] ?? [])
    }
}
