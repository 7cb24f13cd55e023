import DBus
import Loop

/// The desktop's part of the environment — `DISPLAY`, `WAYLAND_DISPLAY`,
/// `SWAYSOCK`, `XDG_CURRENT_DESKTOP` — as the systemd user manager holds it
/// (its `Environment` property, which `systemctl --user import-environment`
/// and `dbus-update-activation-environment --systemd` fill at login) over
/// undod's own. An undod started before the graphical session (by D-Bus
/// activation, say) learns of the desktop here: when the manager's
/// properties change, and on SIGHUP (`refresh`). Where no systemd answers,
/// undod's own environment is all there is. Confined to the loop.
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

    /// Follows the user manager on `connection` over `base`, undod's own environment.
    init(connection: Connection, base: Environment) {
        self.connection = connection
        self.base = base
        current = base
        connection.subscribe(SignalMatch(path: "/org/freedesktop/systemd1",
                                         interface: "org.freedesktop.DBus.Properties",
                                         member: "PropertiesChanged", arg0: Self.manager)) { [weak self] message in
            // The manager announces many properties; only its Environment matters here.
            let arguments = message.arguments
            let changed = arguments.dropFirst().first?.stringDictionary?.keys.contains("Environment") == true
            let invalidated = arguments.dropFirst(2).first?.elements?.contains(.string("Environment")) == true
            if changed || invalidated { self?.refresh() }
        }
    }

    /// Reads the manager's environment again (never starting a systemd by
    /// activation); a change of the desktop variables is handed to
    /// `onChange`. With `always` (SIGHUP) the environment is handed over
    /// even unchanged, or when no manager answers: a display whose server
    /// was not up is then tried again.
    func refresh(always: Bool = false) {
        guard let message = try? Message.methodCall(
            destination: "org.freedesktop.systemd1", path: "/org/freedesktop/systemd1",
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
