import Caretaker
import DBus

/// Learns the origin of a caller (`StackOrigin`): the bus's credentials of
/// its connection (`GetConnectionCredentials`: the process's pidfd where
/// the bus gives one, else its id, and the security label), then that
/// process's files (`ProcessOrigin`). Asked
/// afresh at each `Register`, since a process may exec another program
/// and keep its connection. Confined to the loop; never blocks.
final class CallerOrigins {
    private let connection: Connection

    /// Asks the bus on `connection`.
    init(connection: Connection) {
        self.connection = connection
    }

    /// What undod learned of a caller.
    enum Answer {
        /// Its program.
        case known(StackOrigin)
        /// It is on the bus, but its program cannot be told (no process
        /// from the bus, `/proc` hidden, its pid reused since the call).
        case unknown
        /// The bus does not know it (it left).
        case gone
    }

    /// Calls `done` with what can be learned of `caller`'s origin.
    func origin(of caller: String, done: @escaping (Answer) -> Void) {
        let asked = ProcessOrigin.now()
        guard let message = try? Message.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetConnectionCredentials", arguments: [.string(caller)]) else { return done(.unknown) }
        connection.call(message, timeoutMilliseconds: 5_000) { answer in
            guard case .success(let reply) = answer else { return done(.gone) }
            guard let credentials = reply.arguments.first?.stringDictionary else { return done(.unknown) }
            let label = credentials["LinuxSecurityLabel"]?.bytes ?? []
            // The pidfd where the bus gives one: it names the process
            // whatever the bus's pid namespace, and no reused pid passes.
            if credentials["ProcessFD"] != nil, let pidfd = reply.takeUnixFD() {
                return done(ProcessOrigin.of(pidfd: pidfd.rawValue, securityLabel: label).map(Answer.known) ?? .unknown)
            }
            guard let pid = credentials["ProcessID"]?.uint32 else { return done(.unknown) }
            done(ProcessOrigin.of(pid: pid, securityLabel: label, startedBy: asked).map(Answer.known) ?? .unknown)
        }
    }
}
