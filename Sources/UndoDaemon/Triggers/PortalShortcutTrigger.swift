import DBus
import Loop
import Logging
import UndoCore
import X11

/// The global keys on Wayland, where no program may grab keys: the
/// `org.freedesktop.portal.GlobalShortcuts` portal. undod gives the portal
/// its application name (`org.freedesktop.host.portal.Registry`: GNOME's
/// portal binds keys for named applications only), opens a session
/// (`CreateSession`), binds the shortcuts `undo` and `redo` with the
/// configured keys as preferred triggers (`BindShortcuts`; the compositor
/// may ask the user), and undoes or redoes on each `Activated` signal. Where
/// no portal answers, one log line says how to bind `undoctl undo` in the
/// compositor instead. Confined to the loop.
final class PortalShortcutTrigger {
    /// The portal's bus name, object and interfaces.
    private enum Portal {
        static let name = "org.freedesktop.portal.Desktop"
        static let path = "/org/freedesktop/portal/desktop"
        static let shortcuts = "org.freedesktop.portal.GlobalShortcuts"
        static let request = "org.freedesktop.portal.Request"
        static let session = "org.freedesktop.portal.Session"
        static let registry = "org.freedesktop.host.portal.Registry"
        /// undod's application name: its desktop entry's, which the portal
        /// must find (`Service/org.undod.undod.desktop`, `make install`).
        static let applicationID = "org.undod.undod"
    }

    private let connection: Connection
    private let log: Log
    private let undo: KeyCombination?
    private let redo: KeyCombination?
    private var session: String?
    /// The portal's unique name: signals from anyone else are ignored
    /// (signals sent to undod directly reach it whatever its match rules).
    private var portal: String?
    private var requests = 0
    private var fire: ((Direction, String) -> Void)?

    /// Binds `undo` and `redo` (nil: none) through the portal on `connection`.
    init(connection: Connection, undo: KeyCombination?, redo: KeyCombination?, log: Log) {
        self.connection = connection
        self.undo = undo
        self.redo = redo
        self.log = log
    }

    /// Opens the portal session and binds the shortcuts.
    func start(fire: @escaping (Direction, String) -> Void) {
        guard undo != nil || redo != nil else { return }
        self.fire = fire
        connection.subscribe(SignalMatch(sender: Portal.name, path: Portal.path, interface: Portal.shortcuts,
                                         member: "Activated")) { [weak self] message in
            let arguments = message.arguments
            guard let self, let session = self.session, message.sender == self.portal,
                  arguments.first?.string == session, let id = arguments.dropFirst().first?.string else { return }
            switch id {
            case "undo": self.fire?(.undo, "the portal's undo shortcut")
            case "redo": self.fire?(.redo, "the portal's redo shortcut")
            default: break
            }
        }
        whoIsThePortal { [weak self] in self?.register { self?.openSession() } }
    }

    /// Closes the portal session (its shortcuts go with it); no key fires after.
    func stop() {
        fire = nil
        guard let session, let close = try? Message.methodCall(
            destination: portal ?? Portal.name, path: session, interface: Portal.session, member: "Close") else { return }
        self.session = nil
        connection.call(close, timeoutMilliseconds: 5_000) { _ in }
    }

    /// Learns the portal's unique name (GetNameOwner); where none owns the
    /// name, says how to bind the keys instead.
    private func whoIsThePortal(then next: @escaping () -> Void) {
        do {
            let message = try Message.methodCall(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "GetNameOwner", arguments: [.string(Portal.name)])
            connection.call(message, timeoutMilliseconds: 25_000) { [weak self] answer in
                guard let self else { return }
                switch answer {
                case .success(let reply):
                    self.portal = reply.arguments.first?.string
                    next()
                case .failure(let error):
                    self.unavailable("\(error.name): \(error.message)")
                }
            }
        } catch {
            unavailable(error.message)
        }
    }

    /// Names undod to the portal (before any other call of this connection,
    /// as the registry requires). A portal older than the registry (1.19)
    /// names a host program by its systemd unit; one that cannot find
    /// undod's desktop entry is said once, and binding goes on (KDE's and
    /// wlroots' portals bind for nameless programs too).
    private func register(then next: @escaping () -> Void) {
        do {
            let message = try Message.methodCall(destination: portal ?? Portal.name, path: Portal.path,
                                                 interface: Portal.registry, member: "Register",
                                                 arguments: [.string(Portal.applicationID), .vardict([:])])
            connection.call(message, timeoutMilliseconds: 25_000) { [weak self] answer in
                guard let self else { return }
                if case .failure(let error) = answer, !Self.unknownToOlderPortals.contains(error.name) {
                    self.log.warning(.portalUnnamed, "the portal does not know undod by name (\(error.name): \(error.message)); "
                        + "GNOME binds no keys for a nameless program: install undod's desktop entry "
                        + "\(Portal.applicationID).desktop in an applications folder (`make install` does).")
                }
                next()
            }
        } catch {
            unavailable(error.message)
        }
    }

    /// What a portal without the host registry answers `Register`.
    private static let unknownToOlderPortals: Set<String> = [
        "org.freedesktop.DBus.Error.UnknownMethod", "org.freedesktop.DBus.Error.UnknownInterface",
        "org.freedesktop.DBus.Error.UnknownObject",
    ]

    private func openSession() {
        request("CreateSession", arguments: { token in
            [.vardict(["handle_token": .string(token), "session_handle_token": .string("undod")])]
        }) { [weak self] results in
            guard let self else { return }
            guard let session = results["session_handle"]?.string, !session.isEmpty else {
                return self.unavailable("the portal's session has no handle")
            }
            self.session = session
            self.bind(in: session)
        }
    }

    private func bind(in session: String) {
        let shortcuts: [DBusValue] = [("undo", undo, "Undo the last change in the focused application"),
                                      ("redo", redo, "Redo the last undone change in the focused application")]
            .compactMap { id, key, description in
                key.map { key in
                    .structure([.string(id), .vardict(["description": .string(description),
                                                       "preferred_trigger": .string(key.portalTrigger)])])
                }
            }
        log.notice(.portalAsking,
                   "asking the GlobalShortcuts portal to bind the global keys; the desktop may ask you to accept them.")
        request("BindShortcuts", arguments: { token in
            [.objectPath(session), .array(element: "(sa{sv})", shortcuts), .string(""),
             .vardict(["handle_token": .string(token)])]
        }, accepting: Self.boundDespiteResponse) { [weak self] results in
            guard let self else { return }
            let bound = (results["shortcuts"]?.elements ?? []).compactMap { entry -> String? in
                guard let fields = entry.fields, let id = fields.first?.string else { return nil }
                let trigger = fields.dropFirst().first?.stringDictionary?["trigger_description"]?.string ?? ""
                return trigger.isEmpty ? id : "\(id) = \(trigger)"
            }
            self.log.notice(.portalBound, "the global keys are bound through the GlobalShortcuts portal: "
                + (bound.isEmpty ? "none yet (the compositor's settings assign them)" : bound.joined(separator: ", "))
                + ".")
        }
    }

    /// GNOME's portal backend (48 to 50 at least) answers a bind that took
    /// its keys with a response left unset, often 2, beside the shortcuts
    /// it bound: a response listing bound shortcuts is taken as bound
    /// (a refusal or a cancelled dialog lists none).
    private static func boundDespiteResponse(_ response: UInt32, _ results: [String: DBusValue]) -> Bool {
        response == 0 || !(results["shortcuts"]?.elements ?? []).isEmpty
    }

    /// Calls a portal method that answers through a Request object's
    /// `Response` signal; `handle` gets the results of a response that
    /// `accepts` (by default, response 0).
    /// The signal is subscribed on the predicted request path before the
    /// call, so that it cannot arrive before anyone listens.
    private func request(_ method: String, arguments: (String) -> [DBusValue],
                         accepting accepts: @escaping (UInt32, [String: DBusValue]) -> Bool = { response, _ in response == 0 },
                         handle: @escaping ([String: DBusValue]) -> Void) {
        requests += 1
        let token = "undod\(requests)"
        let sender = connection.uniqueName.dropFirst().replacing(".", with: "_")
        let path = "\(Portal.path)/request/\(sender)/\(token)"
        var subscription: Int?
        subscription = connection.subscribe(SignalMatch(sender: Portal.name, path: path, interface: Portal.request,
                                                        member: "Response")) { [weak self] message in
            guard let self, message.sender == self.portal else { return }
            if let subscription { self.connection.unsubscribe(subscription) }
            let arguments = message.arguments
            let results = arguments.dropFirst().first?.stringDictionary ?? [:]
            guard let response = arguments.first?.uint32, accepts(response, results) else {
                return self.unavailable("the portal refused \(method) (response \(arguments.first?.uint32 ?? 2))")
            }
            handle(results)
        }
        do {
            let message = try Message.methodCall(destination: portal ?? Portal.name, path: Portal.path,
                                                 interface: Portal.shortcuts, member: method, arguments: arguments(token))
            connection.call(message, timeoutMilliseconds: 25_000) { [weak self] answer in
                guard let self, case .failure(let error) = answer else { return }
                if let subscription { self.connection.unsubscribe(subscription) }
                self.unavailable("\(error.name): \(error.message)")
            }
        } catch {
            unavailable(error.message)
        }
    }

    private func unavailable(_ reason: String) {
        log.warning(.portalUnavailable, "no GlobalShortcuts portal binds the global keys on this Wayland session (\(reason)): "
            + "bind `undoctl undo` and `undoctl redo` to keys in your compositor's settings (see undod's Docs/DESKTOPS.md).")
    }
}
