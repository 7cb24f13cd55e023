/// The configuration of a private session bus for tests, the benchmark and
/// the fuzzer: one socket in a directory of the caller's, anyone on it may
/// own any name and talk to anyone, and a login session's generous limits
/// (as Debian's session.conf sets them) so no run meets one by accident.
public enum PrivateBusConfig {
    /// The `busconfig` text for a bus listening in `socketDirectory`; with
    /// `serviceDirectory`, the bus starts services on demand from the
    /// `.service` files there (and from nowhere else); with `everyUser`,
    /// processes of any user may connect (the tests' compositors run as
    /// an unprivileged user), not only the bus's own. `maxOutgoingBytes`
    /// lowers what the bus queues for one connection (a flood test's).
    public static func text(socketDirectory: String, serviceDirectory: String? = nil, everyUser: Bool = false,
                            maxOutgoingBytes: Int = 1_000_000_000) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:dir=\(socketDirectory)</listen>
          <auth>EXTERNAL</auth>\(serviceDirectory.map { "\n  <servicedir>\($0)</servicedir>" } ?? "")
          <policy context="default">\(everyUser ? "\n    <allow user=\"*\"/>" : "")
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
          <limit name="max_incoming_bytes">1000000000</limit>
          <limit name="max_incoming_unix_fds">250000000</limit>
          <limit name="max_outgoing_bytes">\(maxOutgoingBytes)</limit>
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
        """
    }

    /// The arguments that start `dbus-daemon` in the foreground with the
    /// configuration at `configPath`, printing its address on stdout.
    public static func daemonArguments(configPath: String) -> [String] {
        ["--config-file=\(configPath)", "--nofork", "--nopidfile", "--print-address=1"]
    }
}
