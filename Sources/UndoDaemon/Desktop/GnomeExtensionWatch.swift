import DBus
import Loop

/// Whether undod's GNOME Shell extension is active, as the Shell says:
/// kept under GNOME on Wayland, where nothing else binds the key. Whenever
/// a Shell takes `org.gnome.Shell` undod asks it
/// (`org.gnome.Shell.Extensions.GetExtensionInfo`), and it follows the
/// extension's `ExtensionStateChanged` from that Shell; `onChange` hears
/// the problem (nil: active, loading, or no Shell to ask). A Shell takes
/// its name before its extensions are loaded (it then knows none, or does
/// not answer yet): it is asked again until it knows some extension (it
/// learns all installed ones at once), or for a minute at most when it
/// knows none, before undod concludes the extension is not installed. A
/// report the Shell makes through `ReportFocus` is the extension at work:
/// it settles the question at once. Confined to the loop.
final class GnomeExtensionWatch {
    /// Called with the extension's problem whenever it changes.
    var onChange: ((GnomeExtensionState?) -> Void)?

    /// How often, and how many times, a Shell that knows no extension at all yet is asked again.
    static let retryMilliseconds = 500
    static let attempts = 120

    private let connection: Connection
    private let loop: EventLoop
    private var retry: EventLoop.Token?
    /// The Shell's unique name, while one owns `org.gnome.Shell`.
    private var shell: String?
    private var problem: GnomeExtensionState?
    /// Whether the present Shell has reported (the extension is at work):
    /// answers still on their way no longer count.
    private var reported = false
    private var subscription: Int?

    /// A watch that asks on `connection`, and waits on `loop` between tries.
    init(connection: Connection, loop: EventLoop) {
        self.connection = connection
        self.loop = loop
    }

    /// Starts following the Shell through `reports`, the present one first.
    func start(following reports: CompositorReports) {
        guard subscription == nil else { return }
        subscription = connection.subscribe(SignalMatch(
            sender: Compositor.gnome.busName, path: "/org/gnome/Shell", interface: Self.interface,
            member: "ExtensionStateChanged", arg0: KeyProblem.extensionUUID)) { [weak self] message in
            guard let self, message.sender == self.shell, message.arguments.count == 2,
                  let info = message.arguments[1].stringDictionary else { return }
            self.retry.map(self.loop.remove)
            self.retry = nil
            self.update(GnomeExtensionState(info: info))
        }
        reports.followOwner(of: .gnome) { [weak self] owner in self?.shellChanged(to: owner) }
        reports.followReports(of: .gnome) { [weak self] in self?.extensionReported() }
    }

    /// The Shell reported the window in front: only the extension does, so
    /// it is active whatever an earlier answer said.
    private func extensionReported() {
        reported = true
        retry.map(loop.remove)
        retry = nil
        update(nil)
    }

    private static let interface = "org.gnome.Shell.Extensions"

    private func shellChanged(to owner: String?) {
        shell = owner
        reported = false
        retry.map(loop.remove)
        retry = nil
        guard let owner else {
            update(nil)
            return
        }
        ask(owner, attempt: 1)
    }

    /// Asks the Shell `owner` for the extension's state. An answer that
    /// knows no such extension (or none) is only final once the Shell knows
    /// some extension: it learns all those installed at once, when it
    /// looks, so knowing others and not undod's means undod's is not
    /// there. A Shell that knows none at all is asked again until
    /// `attempts`.
    private func ask(_ owner: String, attempt: Int) {
        call(owner, "GetExtensionInfo", [.string(KeyProblem.extensionUUID)]) { [weak self] info in
            guard let self else { return }
            guard info.isEmpty, attempt < Self.attempts else { return self.update(GnomeExtensionState(info: info)) }
            self.call(owner, "ListExtensions", []) { [weak self] known in
                guard let self else { return }
                // Read undod's entry from this answer: the Shell may have
                // learnt its extensions since the first one.
                guard known.isEmpty else {
                    let entry = known[KeyProblem.extensionUUID]?.stringDictionary ?? [:]
                    return self.update(GnomeExtensionState(info: entry))
                }
                self.retry = self.loop.schedule(afterMilliseconds: Self.retryMilliseconds) { [weak self] in
                    guard let self, self.shell == owner, !self.reported else { return }
                    self.retry = nil
                    self.ask(owner, attempt: attempt + 1)
                }
            }
        }
    }

    /// Calls `member` on the Shell `owner`; `then` hears its first
    /// argument as a dictionary (empty when there is no answer), unless
    /// the Shell changed or its extension reported meanwhile.
    private func call(_ owner: String, _ member: String, _ arguments: [DBusValue],
                      then: @escaping ([String: DBusValue]) -> Void) {
        guard let message = try? Message.methodCall(destination: owner, path: "/org/gnome/Shell",
                                                    interface: Self.interface, member: member, arguments: arguments)
        else { return }
        connection.call(message, timeoutMilliseconds: 10_000) { [weak self] answer in
            guard let self, self.shell == owner, !self.reported else { return }
            then((try? answer.get())?.arguments.first?.stringDictionary ?? [:])
        }
    }

    private func update(_ now: GnomeExtensionState?) {
        guard now != problem else { return }
        problem = now
        onChange?(now)
    }
}
