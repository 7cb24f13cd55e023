import Caretaker
import DBus
import Loop

/// What the compositors said through `ReportFocus`: the window in front as
/// each reported it last. A report is taken only under a Wayland session,
/// and only from the compositor itself (the Trust section of
/// `Docs/PROTOCOL.md`): the connection that owns the compositor's
/// well-known name at that moment, whose process is the one serving the
/// Wayland display's socket (or the child of KWin's wrapper that listens
/// for it). Owning the name is not enough: GNOME Shell lets its name
/// be replaced. Everyone else gets `NotAllowed`. A compositor that leaves
/// the bus takes its report with it. Each compositor is a
/// `FrontWindowSource` (`source(_:)`). Confined to the loop.
final class CompositorReports {
    /// One compositor's reports, as a source of the window in front.
    final class Source: FrontWindowSource {
        /// Which compositor.
        let compositor: Compositor
        /// `kwin` or `gnome`.
        var name: String { compositor.rawValue }
        /// The last report, while the compositor owns its name.
        fileprivate(set) var front: WindowReport?
        /// Whether the compositor owns its name now.
        fileprivate(set) var isPresent = false
        /// Called when the report changes, or the compositor comes or goes.
        var onChange: (() -> Void)?

        fileprivate init(_ compositor: Compositor) {
            self.compositor = compositor
        }

        /// Why there is no report.
        var silence: NoFocus {
            guard isPresent else { return .unknown("\(compositor.busName) is not on the bus to say which window is in front") }
            return .unknown("\(compositor.busName) has not reported the window in front; "
                + (compositor == .kwin ? "undod's KWin script is not running" : "enable the undod GNOME Shell extension"))
        }

        /// Reports arrive by themselves: nothing to ask.
        func refresh(then done: @escaping () -> Void) { done() }
    }

    private let connection: Connection
    private let sources = Dictionary(uniqueKeysWithValues: Compositor.allCases.map { ($0, Source($0)) })
    /// The unique name owning each compositor's well-known name.
    private var owners: [Compositor: String] = [:]
    /// Who follows each compositor's owner (`followOwner`).
    private var followers: [Compositor: [(String?) -> Void]] = [:]
    /// Who hears each report a compositor's process is proven to make (`followReports`).
    private var listeners: [Compositor: [() -> Void]] = [:]
    /// The Wayland display's socket; nil outside a Wayland session, which
    /// takes no reports (undod reads an X11 display itself).
    var waylandSocket: String? {
        didSet { if waylandSocket != oldValue { proven = [] } }
    }
    /// The connections proven to be the process serving `waylandSocket`.
    private var proven: Set<String> = []
    /// The reports of connections being checked, in order, with their replies.
    private var checking: [String: [(report: WindowReport, reply: (Result<Void, ServiceError>) -> Void)]] = [:]

    /// Follows the owners of the compositors' names on `connection`.
    init(connection: Connection) {
        self.connection = connection
        connection.onNameOwnerChanged { [weak self] name, _, newOwner in
            guard let self, let compositor = Compositor.allCases.first(where: { $0.busName == name }) else { return }
            self.ownerChanged(compositor, to: newOwner.isEmpty ? nil : newOwner)
        }
        for compositor in Compositor.allCases { askOwner(of: compositor) }
    }

    /// Calls `handler` with the unique name owning `compositor`'s bus name
    /// whenever it changes (nil: it left), and at once when it is known now.
    func followOwner(of compositor: Compositor, _ handler: @escaping (String?) -> Void) {
        followers[compositor, default: []].append(handler)
        if let owner = owners[compositor] { handler(owner) }
    }

    /// Calls `handler` whenever `compositor` itself reports (a report
    /// taken, not one refused): proof that what reports for it runs.
    func followReports(of compositor: Compositor, _ handler: @escaping () -> Void) {
        listeners[compositor, default: []].append(handler)
    }

    /// `compositor`'s reports as a source of the window in front.
    func source(_ compositor: Compositor) -> Source {
        sources[compositor] ?? Source(compositor)
    }

    /// `ReportFocus` from `caller`: kept as its compositor's word, or
    /// refused when `caller` is not the compositor; `reply` says which.
    /// The first report of a connection waits while its process is checked
    /// (one call to the bus); reports are taken in the order they came.
    func accept(from caller: String, _ report: WindowReport,
                reply: @escaping (Result<Void, ServiceError>) -> Void) {
        guard Compositor.allCases.contains(where: { owners[$0] == caller }) else {
            return reply(.failure(.notAllowed(caller: caller)))
        }
        guard let socket = waylandSocket else {
            return reply(.failure(.reportRefused("this is an X11 session, whose windows undod reads itself")))
        }
        if proven.contains(caller) { return take(report, from: caller, reply) }
        guard checking[caller] == nil else { return checking[caller]?.append((report, reply)) ?? () }
        checking[caller] = [(report, reply)]
        prove(caller, serves: socket) { [weak self] refusal in
            guard let self else { return }
            if refusal == nil { self.proven.insert(caller) }
            for (report, reply) in self.checking.removeValue(forKey: caller) ?? [] {
                if let refusal { reply(.failure(.reportRefused(refusal))) } else { self.take(report, from: caller, reply) }
            }
        }
    }

    /// Keeps `report` as the word of the compositor whose name `caller` owns.
    private func take(_ report: WindowReport, from caller: String, _ reply: (Result<Void, ServiceError>) -> Void) {
        guard let compositor = Compositor.allCases.first(where: { owners[$0] == caller }) else {
            return reply(.failure(.notAllowed(caller: caller)))
        }
        update(compositor, front: report)
        reply(.success(()))
        for listener in listeners[compositor] ?? [] { listener() }
    }

    /// Whether process `pid` is KWin's wrapper, which listens on the Wayland
    /// socket for the `kwin_wayland` it runs as its child (Plasma 6).
    private static func isKWinWrapper(_ pid: UInt32) -> Bool {
        LocalProcess.executable(pid)?.split(separator: "/").last == "kwin_wayland_wrapper"
    }

    /// Calls `then` with nil when `caller`'s process serves the Wayland
    /// display at `socket` (it listens there, or KWin's wrapper that runs
    /// it does), else with why not. Any other child of the compositor (an
    /// app it launched) is not the compositor.
    private func prove(_ caller: String, serves socket: String, then: @escaping (String?) -> Void) {
        guard let message = try? Message.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetConnectionCredentials", arguments: [.string(caller)]) else { return then("undod could not ask") }
        connection.call(message, timeoutMilliseconds: 5_000) { answer in
            guard case .success(let reply) = answer,
                  let pid = reply.arguments.first?.stringDictionary?["ProcessID"]?.uint32 else {
                return then("the bus does not say which process \(caller) is")
            }
            guard let server = UnixListener.processID(at: socket) else {
                return then("nobody serves the Wayland display at \(socket)")
            }
            if pid == server || (LocalProcess.parent(pid) == server && Self.isKWinWrapper(server)) { return then(nil) }
            then("\(caller) (\(LocalProcess.label(pid))) is not the process serving the Wayland display "
                + "(\(LocalProcess.label(server)))")
        }
    }

    /// A new owner (or none) for `compositor`'s name: its report goes, and
    /// the followers are told.
    private func ownerChanged(_ compositor: Compositor, to owner: String?) {
        if let old = owners[compositor] { proven.remove(old) }
        owners[compositor] = owner
        update(compositor, front: nil)
        for follower in followers[compositor] ?? [] { follower(owner) }
    }

    private func update(_ compositor: Compositor, front: WindowReport?) {
        guard let source = sources[compositor] else { return }
        let present = owners[compositor] != nil
        guard source.front != front || source.isPresent != present else { return }
        source.front = front
        source.isPresent = present
        source.onChange?()
    }

    /// Learns who owns `compositor`'s name now (NameOwnerChanged tells of
    /// every change after).
    private func askOwner(of compositor: Compositor) {
        guard let message = try? Message.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetNameOwner", arguments: [.string(compositor.busName)]) else { return }
        connection.call(message, timeoutMilliseconds: 5_000) { [weak self] answer in
            guard let self, case .success(let reply) = answer, let owner = reply.arguments.first?.string,
                  self.owners[compositor] == nil else { return }
            self.ownerChanged(compositor, to: owner)
        }
    }
}
