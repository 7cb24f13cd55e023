import Caretaker
import DBus

/// What the compositors said through `ReportFocus`: the window in front as
/// each reported it last, accepted only from the connection that owns the
/// compositor's well-known name at that moment (`NotAllowed` from anyone
/// else). A compositor that leaves the bus takes its report with it.
/// Confined to the loop.
final class CompositorReports {
    /// One compositor's word on the window in front.
    struct Report: Equatable {
        /// The window's process as the compositor knows it; 0: none.
        var processID: UInt32
        /// The app id the window gave itself: named in sentences, never
        /// used to pick a stack.
        var appID: String
        /// The sandbox's app id, or `""`.
        var sandboxAppID: String
    }

    private let connection: Connection
    /// The unique name owning each compositor's well-known name.
    private var owners: [Compositor: String] = [:]
    /// The last report of each compositor, while its owner stays.
    private var reports: [Compositor: Report] = [:]
    /// Called after each accepted report, and when a compositor comes or goes.
    var onChange: (() -> Void)?

    /// Follows the owners of the compositors' names on `connection`.
    init(connection: Connection) {
        self.connection = connection
        connection.onNameOwnerChanged { [weak self] name, _, newOwner in
            guard let self, let compositor = Compositor.allCases.first(where: { $0.busName == name }) else { return }
            self.owners[compositor] = newOwner.isEmpty ? nil : newOwner
            self.reports[compositor] = nil
            self.onChange?()
        }
        for compositor in Compositor.allCases { askOwner(of: compositor) }
    }

    /// The last report of `compositor`, while it owns its name.
    func report(of compositor: Compositor) -> Report? {
        reports[compositor]
    }

    /// Whether `compositor` owns its name now.
    func isPresent(_ compositor: Compositor) -> Bool {
        owners[compositor] != nil
    }

    /// `ReportFocus` from `caller`: kept as its compositor's word, or
    /// refused when `caller` owns no compositor's name.
    func accept(from caller: String, _ report: Report) throws(ServiceError) {
        guard let compositor = Compositor.allCases.first(where: { owners[$0] == caller }) else {
            throw .notAllowed(caller: caller)
        }
        guard reports[compositor] != report else { return }
        reports[compositor] = report
        onChange?()
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
            self.owners[compositor] = owner
            self.onChange?()
        }
    }
}
