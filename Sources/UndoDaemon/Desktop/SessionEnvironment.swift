#if canImport(Glibc)
import Glibc
#endif
import DBus
import Loop
import Logging
import ProcessEnvironment

/// The desktop's part of the environment — `DISPLAY`, `WAYLAND_DISPLAY`,
/// `SWAYSOCK`, `XDG_CURRENT_DESKTOP` — as the systemd user manager holds it
/// (its `Environment` property, which `systemctl --user import-environment`
/// and `dbus-update-activation-environment --systemd` fill at login) over
/// undod's own. An undod started before the graphical session (by D-Bus
/// activation, say) learns of the desktop here: when the manager's
/// properties change, and on SIGHUP (`refresh`). Where no systemd answers,
/// undod's own environment is all there is.
///
/// Only the real manager is heard (the Trust section of
/// `Docs/PROTOCOL.md`): the owner of `org.freedesktop.systemd1` whose
/// process is undod's parent (undod run as its service) or runs systemd's
/// executable; asked by its unique name, and its signals taken from that
/// name alone. A process that took the name in a session without systemd
/// is ignored, and said so once. Confined to the loop.
final class SessionEnvironment {
    /// The variables that say which desktop there is.
    static let desktopKeys = ["DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK", "XDG_CURRENT_DESKTOP"]

    /// The user manager's interface.
    private static let manager = "org.freedesktop.systemd1.Manager"

    /// Called with the merged environment when its desktop variables change.
    var onChange: ((Environment) -> Void)?
    /// The environment as last merged.
    private(set) var current: Environment

    private let connection: Connection
    private let base: Environment
    private let log: Log?
    /// The unique name of the manager, once its process was checked.
    private var manager: String?
    /// The owners already found to be no manager (said once each).
    private var refused: Set<String> = []

    /// Follows the user manager on `connection` over `base`, undod's own environment.
    init(connection: Connection, base: Environment, log: Log? = nil) {
        self.connection = connection
        self.base = base
        self.log = log
        current = base
        _ = connection.onNameOwnerChanged { [weak self] name, _, _ in
            if name == "org.freedesktop.systemd1" { self?.manager = nil }
        }
        connection.subscribe(SignalMatch(path: "/org/freedesktop/systemd1",
                                         interface: "org.freedesktop.DBus.Properties",
                                         member: "PropertiesChanged", arg0: Self.manager)) { [weak self] message in
            // Only the manager checked is heard.
            guard let self, let manager = self.manager, message.sender == manager else { return }
            // The manager announces many properties; only its Environment matters here.
            let arguments = message.arguments
            let changed = arguments.dropFirst().first?.stringDictionary?.keys.contains("Environment") == true
            let invalidated = arguments.dropFirst(2).first?.elements?.contains(.string("Environment")) == true
            if changed || invalidated { self.refresh() }
        }
    }

    /// Reads the manager's environment again (never starting a systemd by
    /// activation); a change of the desktop variables is handed to
    /// `onChange`. With `always` (SIGHUP) the environment is handed over
    /// even unchanged, or when no manager answers: a display whose server
    /// was not up is then tried again.
    func refresh(always: Bool = false) {
        findManager { [weak self] manager in
            guard let self else { return }
            guard let manager else {
                if always { self.onChange?(self.current) }
                return
            }
            self.read(from: manager, always: always)
        }
    }

    /// Calls `then` with the manager's unique name, nil where none is on
    /// the bus or its owner is not systemd (`isManager`).
    private func findManager(then: @escaping (String?) -> Void) {
        if let manager { return then(manager) }
        bus("GetNameOwner", "org.freedesktop.systemd1") { [weak self] owner in
            guard let self, let owner = owner?.string else { return then(nil) }
            self.bus("GetConnectionCredentials", owner) { [weak self] credentials in
                guard let self else { return }
                let pid = credentials?.stringDictionary?["ProcessID"]?.uint32 ?? 0
                guard Self.isManager(pid) else {
                    if self.refused.insert(owner).inserted {
                        self.log?.warning(.environmentIgnored, "ignored the environment offered by \(owner) on "
                            + "org.freedesktop.systemd1: its process (\(pid == 0 ? "unknown" : LocalProcess.label(pid))) is not the "
                            + "systemd user manager.")
                    }
                    return then(nil)
                }
                self.manager = owner
                then(owner)
            }
        }
    }

    /// Whether process `pid` is the systemd user manager: undod's parent
    /// (undod runs as its service), or a process running systemd.
    static func isManager(_ pid: UInt32) -> Bool {
        guard pid > 0 else { return false }
        if pid == UInt32(bitPattern: getppid()) { return true }
        guard let executable = LocalProcess.executable(pid) else { return false }
        return ["/usr/lib/systemd/systemd", "/lib/systemd/systemd"].contains(executable)
    }

    /// Calls the bus's `member` with `name`; `then` gets the first value of
    /// the reply, nil on an error.
    private func bus(_ member: String, _ name: String, then: @escaping (DBusValue?) -> Void) {
        guard let message = try? Message.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: member, arguments: [.string(name)]) else { return then(nil) }
        connection.call(message, timeoutMilliseconds: 5_000) { answer in
            guard case .success(let reply) = answer else { return then(nil) }
            then(reply.arguments.first)
        }
    }

    /// Reads the environment of the manager at unique name `manager`.
    private func read(from manager: String, always: Bool) {
        guard let message = try? Message.methodCall(
            destination: manager, path: "/org/freedesktop/systemd1",
            interface: "org.freedesktop.DBus.Properties", member: "Get",
            arguments: [.string(Self.manager), .string("Environment")]) else { return }
        message.setNoAutoStart()
        connection.call(message, timeoutMilliseconds: 5_000) { [weak self] answer in
            guard let self else { return }
            guard case .success(let reply) = answer,
                  let entries = reply.arguments.first?.variantValue?.elements?.compactMap(\.string) else {
                if always { self.onChange?(self.current) }
                return
            }
            self.adopt(entries, always: always)
        }
    }

    /// Merges the manager's `KEY=VALUE` entries over undod's environment.
    private func adopt(_ entries: [String], always: Bool) {
        var variables = base.variables
        for entry in entries {
            guard let equals = entry.firstIndex(of: "=") else { continue }
            let key = String(entry[..<equals])
            if Self.desktopKeys.contains(key) { variables[key] = String(entry[entry.index(after: equals)...]) }
        }
        let merged = Environment(variables)
        guard always || Self.desktopKeys.contains(where: { merged.value($0) != current.value($0) }) else { return }
        current = merged
        onChange?(merged)
    }
}
