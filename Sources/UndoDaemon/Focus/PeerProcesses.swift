import Caretaker
import DBus

/// The Unix process of each stack owner's connection, as the bus vouches for
/// it (`GetConnectionCredentials`), and the Flatpak sandbox it runs in: what
/// the window strategies compare with the window in front's. Looked up once
/// per connection, without blocking, and forgotten when the connection
/// leaves the bus. Confined to the loop.
final class PeerProcesses {
    private let connection: Connection
    private var known: [String: UInt32] = [:]
    private var sandboxes: [UInt32: String] = [:]
    /// The label of the last window's process asked for, by pid.
    private var lastLabel: (pid: UInt32, text: String)?
    private var asking: Set<String> = []
    private var waiters: [() -> Void] = []
    /// Called when a process id is learned.
    var onLearned: (() -> Void)?

    /// Asks the bus on `connection`, and forgets connections that leave it.
    init(connection: Connection) {
        self.connection = connection
        connection.onNameOwnerChanged { [weak self] name, _, newOwner in
            guard let self, newOwner.isEmpty, name.hasPrefix(":") else { return }
            if let pid = self.known.removeValue(forKey: name) { self.sandboxes[pid] = nil }
        }
    }

    /// The process id of `name`'s connection, if known.
    func processID(of name: String) -> UInt32? { known[name] }

    /// The sandbox app id of an owner's process (learned with its id), or
    /// of another process (read now), if it runs in one.
    func sandbox(of pid: UInt32) -> String? {
        if let known = sandboxes[pid] { return known.isEmpty ? nil : known }
        return LocalProcess.sandboxAppID(pid)
    }

    /// The matching rule over these processes.
    private(set) lazy var matcher = WindowMatch(processOf: { [unowned self] in self.processID(of: $0) },
                                                sandboxOf: { [unowned self] in self.sandbox(of: $0) },
                                                parentOf: LocalProcess.parent, startTimeOf: LocalProcess.startTime)

    /// `konsole (pid 4242)`, for a sentence: the command name `/proc` gives,
    /// else `appID` (what the window calls itself) where there is one; the
    /// last one asked for is kept, as focus is looked at often.
    func label(of pid: UInt32, appID: String = "") -> String {
        if let lastLabel, lastLabel.pid == pid { return lastLabel.text }
        var text = LocalProcess.label(pid)
        if text.hasPrefix("pid "), !appID.isEmpty { text = "\(appID) (pid \(pid))" }
        lastLabel = (pid, text)
        return text
    }

    /// Starts looking up `name` unless it is known or being looked up.
    func lookUp(_ name: String) {
        guard !name.isEmpty, known[name] == nil, !asking.contains(name) else { return }
        asking.insert(name)
        let message: Message
        do {
            message = try Message.methodCall(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                interface: "org.freedesktop.DBus", member: "GetConnectionCredentials", arguments: [.string(name)])
        } catch {
            asking.remove(name)
            return
        }
        connection.call(message, timeoutMilliseconds: 5_000) { [weak self] answer in
            guard let self else { return }
            self.asking.remove(name)
            if case .success(let reply) = answer,
               let pid = reply.arguments.first?.stringDictionary?["ProcessID"]?.uint32 {
                self.known[name] = pid
                self.sandboxes[pid] = LocalProcess.sandboxAppID(pid) ?? ""
                self.onLearned?()
            }
            self.releaseWaiters()
        }
    }

    /// Calls `done` once no lookup is outstanding.
    func whenAnswered(_ done: @escaping () -> Void) {
        waiters.append(done)
        releaseWaiters()
    }

    private func releaseWaiters() {
        guard asking.isEmpty, !waiters.isEmpty else { return }
        let ready = waiters
        waiters.removeAll()
        for waiter in ready { waiter() }
    }
}
