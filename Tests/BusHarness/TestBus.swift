import Foundation

/// A private `dbus-daemon` for one test: started on a socket in its own
/// temporary directory, never the user's bus, and killed by `stop`.
public final class TestBus: @unchecked Sendable {
    // @unchecked: immutable after init except through `stop`, which is idempotent.

    /// The address clients connect to.
    public let address: String
    /// The temporary directory holding the bus's config and socket.
    public let directory: URL
    private let process: Process

    /// Starts a bus and waits (at most 10 s) until it prints its address.
    /// With `services`, the bus starts services on demand from the
    /// `.service` files in that directory (and from nowhere else).
    public init(services: URL? = nil) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("undod-test-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("bus.conf")
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:dir=\(directory.path)</listen>
              <auth>EXTERNAL</auth>\(services.map { "\n  <servicedir>\($0.path)</servicedir>" } ?? "")
              <!-- A session bus's limits, as Debian's session.conf sets them. -->
              <limit name="max_incoming_bytes">1000000000</limit>
              <limit name="max_outgoing_bytes">1000000000</limit>
              <limit name="max_message_size">1000000000</limit>
              <limit name="max_match_rules_per_connection">50000</limit>
              <limit name="max_replies_per_connection">50000</limit>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """.write(to: config, atomically: true, encoding: .utf8)
        let output = Pipe()
        process = Process()
        let arguments = ["/usr/bin/dbus-daemon", "--config-file=\(config.path)", "--nofork", "--print-address=1"]
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
        try process.run()
        ChildReaper.watch(process.processIdentifier)
        var text = ""
        let deadline = Date().addingTimeInterval(10)
        while !text.contains("\n"), Date() < deadline {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        let line = text.split(separator: "\n").first.map(String.init) ?? ""
        guard line.hasPrefix("unix:") else {
            process.terminate()
            throw HarnessError("dbus-daemon did not print an address (got “\(text)”).")
        }
        address = line
    }

    /// Kills the bus and removes its directory. Safe to call twice.
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
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
