#if canImport(Glibc)
import Glibc
#endif

/// A private `dbus-daemon` for the run, on a socket in the scratch
/// directory: never the user's bus.
final class PrivateBus {
    /// The address clients connect to.
    let address: String
    private let process: ChildProcess
    /// The bus daemon's process id.
    var pid: pid_t { process.pid }

    /// Starts the bus and waits (at most 10 s) for it to print its address.
    init(scratch: Scratch, executable: String) throws(BenchError) {
        let socketDirectory = try scratch.directory("bus")
        // Session-bus limits (as /usr/share/dbus-1/session.conf sets them), so
        // 128 calls in flight are far from any of them.
        let config = try scratch.write("bus.conf", """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:dir=\(socketDirectory)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
              <limit name="max_incoming_bytes">1000000000</limit>
              <limit name="max_incoming_unix_fds">250000000</limit>
              <limit name="max_outgoing_bytes">1000000000</limit>
              <limit name="max_outgoing_unix_fds">250000000</limit>
              <limit name="max_message_size">1000000000</limit>
              <limit name="service_start_timeout">120000</limit>
              <limit name="auth_timeout">240000</limit>
              <limit name="pending_fd_timeout">150000</limit>
              <limit name="max_completed_connections">100000</limit>
              <limit name="max_incomplete_connections">10000</limit>
              <limit name="max_connections_per_user">100000</limit>
              <limit name="max_pending_service_starts">10000</limit>
              <limit name="max_names_per_connection">50000</limit>
              <limit name="max_match_rules_per_connection">50000</limit>
              <limit name="max_replies_per_connection">50000</limit>
            </busconfig>
            """)
        let output = try RunGuard.pipe()
        do {
            process = try ChildProcess(
                path: executable, arguments: ["--config-file=\(config)", "--nofork", "--nopidfile", "--print-address=1"],
                name: "dbus-daemon", stdout: output.write)
        } catch {
            close(output.read)
            close(output.write)
            throw error
        }
        close(output.write)
        defer { close(output.read) }
        var text = ""
        let deadline = Clock.now() + 10_000_000_000
        while !text.contains("\n") {
            let left = Int((deadline - Clock.now()) / 1_000_000)
            guard left > 0 else { break }
            var fds = [pollfd(fd: output.read, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 1, Int32(left)) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 512)
            let count = read(output.read, &buffer, buffer.count)
            if count <= 0 { break }
            text += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        let line = text.split(separator: "\n").first.map(String.init) ?? ""
        guard line.hasPrefix("unix:") else {
            process.kill()
            throw BenchError("\(executable) did not print a bus address within 10 s (it printed “\(text)”).")
        }
        address = line
    }

    /// Stops the bus.
    func stop() {
        process.kill()
    }
}
