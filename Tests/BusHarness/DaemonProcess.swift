public import DBus
public import Foundation
public import Loop
import Undo1
import Undo1Wire

/// A real `undod`, the built binary, on a test's private bus, with its own
/// config file and state directory. Started and stopped like a user would.
public final class DaemonProcess {
    /// The bus it serves.
    public let bus: TestBus
    /// Its config file.
    public let configFile: URL
    /// Its state directory.
    public let stateDirectory: URL
    /// The process.
    public let process: Process
    /// Marks undod's exit and wakes the loop (`ExitWatch`).
    private var exitWatch: ExitWatch?
    /// What undod wrote to stderr, read as it comes while the loop runs.
    private var captured: [UInt8] = []
    private let errorPipe = Pipe()
    private let loop: EventLoop
    private var errorWatch: EventLoop.Token?
    /// undod's unique name on the bus.
    public private(set) var uniqueOwner = ""
    /// undod's own process id, as the bus knows it: the process started is
    /// a wrapper's where there is one (strace stays; a killed strace leaves
    /// undod running), so signals go here.
    public private(set) var pid: Int32 = 0

    /// The built `undod` next to the test binary (or `$UNDOD_BIN`).
    public static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["UNDOD_BIN"] { return URL(fileURLWithPath: path) }
        return buildDirectory.appendingPathComponent("undod")
    }

    /// The built `undoctl` next to the test binary.
    public static var undoctl: URL { buildDirectory.appendingPathComponent("undoctl") }

    /// The directory holding the built products.
    public static var buildDirectory: URL {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("undod").path) { return url }
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug")
    }

    /// Starts undod on `bus` with `config` as its config file's text, and
    /// waits (at most 20 s) until it owns `org.undod.Undo1`, serving `loop`
    /// meanwhile.
    public init(bus: TestBus, loop: EventLoop, watcher: Connection, config: String = "",
                stateDirectory: URL? = nil, extraArguments: [String] = [], wrapper: [String] = [],
                environment: [String: String] = [:]) throws {
        self.bus = bus
        configFile = bus.directory.appendingPathComponent("undod-\(UUID().uuidString.prefix(6)).conf")
        try config.write(to: configFile, atomically: false, encoding: .utf8)
        self.stateDirectory = stateDirectory ?? bus.directory.appendingPathComponent("state")
        self.loop = loop
        var owned = false
        let subscription = watcher.subscribe(.nameOwnerChanged(name: Undo1.busName)) { message in
            if let newOwner = message.arguments.last?.string, !newOwner.isEmpty { owned = true }
        }
        defer { watcher.unsubscribe(subscription) }
        _ = try watcher.callAndWait(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                    interface: "org.freedesktop.DBus.Peer", member: "Ping")
        try FileManager.default.createDirectory(at: self.stateDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        process = Process()
        let command = [Self.binary.path, "--address", bus.address, "--config", configFile.path,
                       "--state-dir", self.stateDirectory.path, "--verbose"] + extraArguments
        if wrapper.isEmpty {
            process.executableURL = Self.binary
            process.arguments = Array(command.dropFirst())
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            // "@STATE@" in the wrapper stands for the state directory.
            process.arguments = wrapper.map { $0.replacingOccurrences(of: "@STATE@", with: self.stateDirectory.path) }
                + command
        }
        // Non-blocking at both ends: undod never stalls on a full pipe (a
        // line is lost instead), and the loop reads whatever is there.
        let readEnd = errorPipe.fileHandleForReading.fileDescriptor
        _ = fcntl(errorPipe.fileHandleForWriting.fileDescriptor, F_SETFL, O_NONBLOCK)
        _ = fcntl(readEnd, F_SETFL, O_NONBLOCK)
        process.standardError = errorPipe
        errorWatch = loop.watch(fd: readEnd, events: .readable) { [weak self] in self?.drainErrors() }
        process.standardOutput = FileHandle.nullDevice
        // No desktop but the test's own: the user's display and Wayland stay out.
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = nil
        env["WAYLAND_DISPLAY"] = nil
        env["XDG_CURRENT_DESKTOP"] = nil
        env["SWAYSOCK"] = nil
        env["DBUS_SESSION_BUS_ADDRESS"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        // Wakes the loop when undod exits, so waits end at once.
        let exitWatch = try ExitWatch(running: process, waking: loop)
        self.exitWatch = exitWatch
        ChildReaper.watch(process.processIdentifier)
        guard loop.run(until: { owned || exitWatch.hasExited }, timeoutMilliseconds: TestTime.milliseconds(20_000)),
              owned else {
            stop()
            throw HarnessError("undod did not take its name: \(log)")
        }
        uniqueOwner = try watcher.callAndWait(Undo1Call.nameOwner()).arguments.first?.string ?? ""
        // undod's own pid, under a wrapper too; a bus in another pid
        // namespace knows none (`TestBus(release:)`), and no wrapper runs there.
        let named = try? watcher.callAndWait(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetConnectionUnixProcessID", arguments: [.string(uniqueOwner)]).first?.uint32
        pid = named.map { Int32(bitPattern: $0) } ?? process.processIdentifier
    }

    /// What undod wrote to stderr so far.
    public var log: String {
        drainErrors()
        return String(decoding: captured, as: UTF8.self)
    }

    private func drainErrors() {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let fd = errorPipe.fileHandleForReading.fileDescriptor
        while true {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { return }
            captured += buffer[0..<count]
        }
    }

    /// Sends `signal` to undod itself.
    public func signal(_ signal: Int32) {
        kill(pid > 0 ? pid : process.processIdentifier, signal)
    }

    /// Waits (at most `timeout` ms) for undod to exit while `loop` runs;
    /// returns its exit status, or nil if it is still running. An undod
    /// that does not exit is a bug: its log's end and every thread's stack
    /// (by gdb, where installed) go to stderr, for whoever reads the run.
    public func waitForExit(loop: EventLoop, timeout: Int = 10_000) -> Int32? {
        guard let exitWatch,
              loop.run(until: { exitWatch.hasExited }, timeoutMilliseconds: TestTime.milliseconds(timeout))
        else {
            reportHang()
            return nil
        }
        return exitWatch.termination?.status
    }

    /// Writes why undod still runs to stderr: its log's end and its threads.
    private func reportHang() {
        let pid = process.processIdentifier
        var report = "undod (pid \(pid)) did not exit; its log ends:\n" + String(log.suffix(4_000))
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb"),
           let stacks = try? runTool(["gdb", "-p", "\(pid)", "-batch", "-ex", "thread apply all bt"], timeout: 60) {
            report += "\nits threads:\n" + stacks.output
        }
        FileHandle.standardError.write(Data(report.utf8))
    }

    /// Kills undod with SIGKILL and waits until its name has left the bus.
    public func crash(loop: EventLoop, watcher: Connection) {
        var gone = false
        let subscription = watcher.subscribe(.nameOwnerChanged(name: Undo1.busName)) { message in
            if message.arguments.last?.string == "" { gone = true }
        }
        defer { watcher.unsubscribe(subscription) }
        _ = try? watcher.callAndWait(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                     interface: "org.freedesktop.DBus.Peer", member: "Ping")
        signal(SIGKILL)
        exitWatch?.waitBlocking(milliseconds: TestTime.milliseconds(10_000))
        // Killed before (a test's fault at a moment of its own): the name
        // may have gone already.
        if let owned = try? watcher.callAndWait(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                                interface: "org.freedesktop.DBus", member: "NameHasOwner",
                                                arguments: [.string(Undo1.busName)]).first?.bool, !owned {
            gone = true
        }
        loop.run(until: { gone }, timeoutMilliseconds: TestTime.milliseconds(10_000))
    }

    /// Kills undod (SIGKILL) if it still runs, and the wrapper it runs in.
    public func stop() {
        if pid > 0, exitWatch?.hasExited == false { kill(pid, SIGKILL) }
        exitWatch?.kill()
        ChildReaper.forget(process.processIdentifier)
        if let errorWatch {
            loop.remove(errorWatch)
            self.errorWatch = nil
        }
    }

    deinit {
        stop()
        closeHarnessDescriptors([errorPipe.fileHandleForReading])
    }
}
