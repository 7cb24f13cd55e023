import Caretaker
import DBus

/// What the compositors said through `ReportFocus`: the window in front as
/// each reported it last, accepted only from the connection that owns the
/// compositor's well-known name at that moment (`NotAllowed` from anyone
/// else). A compositor that leaves the bus takes its report with it. Each
/// compositor is a `FrontWindowSource` (`source(_:)`). Confined to the loop.
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

    /// `compositor`'s reports as a source of the window in front.
    func source(_ compositor: Compositor) -> Source {
        sources[compositor] ?? Source(compositor)
    }

    /// `ReportFocus` from `caller`: kept as its compositor's word, or
    /// refused when `caller` owns no compositor's name.
    func accept(from caller: String, _ report: WindowReport) throws(ServiceError) {
        guard let compositor = Compositor.allCases.first(where: { owners[$0] == caller }) else {
            throw .notAllowed(caller: caller)
        }
        update(compositor, front: report)
    }

    /// A new owner (or none) for `compositor`'s name: its report goes, and
    /// the followers are told.
    private func ownerChanged(_ compositor: Compositor, to owner: String?) {
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
