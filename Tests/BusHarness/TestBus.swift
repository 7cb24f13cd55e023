public import Foundation
import Rig

/// A private `dbus-daemon` for one test: started on a socket in its own
/// temporary directory, never the user's bus, and killed by `stop`. Any
/// user may connect: a newer Debian's compositor runs as the test user.
public final class TestBus: @unchecked Sendable {
    // @unchecked: immutable after init except through `stop`, which is idempotent.

    /// The address clients connect to.
    public let address: String
    /// The temporary directory holding the bus's config and socket.
    public let directory: URL
    private let process: Process
    private let child: ExitWatch

    /// Starts a bus and waits (at most 10 s) until it prints its address.
    /// With `services`, the bus starts services on demand from the
    /// `.service` files in that directory (and from nowhere else).
    /// `maxOutgoingBytes`: what the bus queues for one connection at most.
    /// With `release`, the dbus-daemon of that Debian's root, in a pid
    /// namespace of its own (it sees no pid of the test's processes).
    public init(services: URL? = nil, maxOutgoingBytes: Int = 1_000_000_000, release: DesktopRelease? = nil) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("undod-test-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Open to every user whatever the umask: a compositor from a newer
        // Debian's root runs as another user, and must reach the socket.
        guard chmod(directory.path, 0o755) == 0 else { throw HarnessError("cannot open \(directory.path) to others") }
        let config = directory.appendingPathComponent("bus.conf")
        try PrivateBusConfig.text(socketDirectory: directory.path, serviceDirectory: services?.path, everyUser: true,
                                  maxOutgoingBytes: maxOutgoingBytes)
            .write(to: config, atomically: false, encoding: .utf8)
        let output = Pipe()
        process = Process()
        var arguments = ["/usr/bin/dbus-daemon"] + PrivateBusConfig.daemonArguments(configPath: config.path)
        if let release {
            arguments = try release.command(arguments, asUser: false, ownPIDNamespace: true)
        }
        if services == nil {
            process.executableURL = URL(fileURLWithPath: arguments[0])
            process.arguments = Array(arguments.dropFirst())
        } else {
            // Children inherit the test runner's blocked signals; a bus that
            // starts services must see SIGCHLD to learn that one exited, so
            // it runs with none blocked, as a login session's bus does.
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-c", "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); "
                                 + "os.execv(sys.argv[1], sys.argv[1:])"] + arguments
        }
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        child = try ExitWatch(running: process, waking: nil)
        ChildReaper.watch(process.processIdentifier)
        defer { closeHarnessDescriptors([output.fileHandleForReading]) }   // the bus prints its address once
        do {
            address = try BusAddressReader.read(from: output.fileHandleForReading.fileDescriptor, within: 10_000)
        } catch {
            process.terminate()
            throw HarnessError(error.description)
        }
    }

    /// Kills the bus and removes its directory. Safe to call twice.
    public func stop() {
        child.kill()
        ChildReaper.forget(process.processIdentifier)
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}

/// A failure of the test harness itself, with a sentence.
public struct HarnessError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    /// Makes an error.
    public init(_ description: String) { self.description = description }
}
