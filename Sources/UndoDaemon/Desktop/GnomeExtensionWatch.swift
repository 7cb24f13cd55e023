import DBus
import Loop

/// Whether undod's GNOME Shell extension is active, as the Shell says:
/// kept under GNOME on Wayland, where nothing else binds the key. Whenever
/// a Shell takes `org.gnome.Shell` undod asks it
/// (`org.gnome.Shell.Extensions.GetExtensionInfo`), and it follows the
/// extension's `ExtensionStateChanged` from that Shell; `onChange` hears
/// the problem (nil: active, loading, or no Shell to ask). A Shell takes
/// its name before its extensions are loaded (it then knows none, or does
/// not answer yet): it is asked again, a bounded number of times, before
/// undod concludes the extension is not installed. Confined to the loop.
final class GnomeExtensionWatch {
    /// Called with the extension's problem whenever it changes.
    var onChange: ((GnomeExtensionState?) -> Void)?

    /// How often, and how many times, a Shell that knows no extension yet is asked again.
    static let retryMilliseconds = 500
    static let attempts = 30

    private let connection: Connection
    private let loop: EventLoop
    private var retry: EventLoop.Token?
    /// The Shell's unique name, while one owns `org.gnome.Shell`.
    private var shell: String?
    private var problem: GnomeExtensionState?
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
    }

    private static let interface = "org.gnome.Shell.Extensions"

    private func shellChanged(to owner: String?) {
        shell = owner
        retry.map(loop.remove)
        retry = nil
        guard let owner else {
            update(nil)
            return
        }
        ask(owner, attempt: 1)
    }

    /// Asks the Shell `owner` for the extension's state; an answer that
    /// knows no extension, or none, is asked again until `attempts`.
    private func ask(_ owner: String, attempt: Int) {
        guard let ask = try? Message.methodCall(destination: owner, path: "/org/gnome/Shell", interface: Self.interface,
                                                member: "GetExtensionInfo", arguments: [.string(KeyProblem.extensionUUID)])
        else { return }
        connection.call(ask, timeoutMilliseconds: 10_000) { [weak self] answer in
            guard let self, self.shell == owner else { return }
            let info = (try? answer.get())?.arguments.first?.stringDictionary ?? [:]
            guard info.isEmpty, attempt < Self.attempts else {
                self.update(GnomeExtensionState(info: info))
                return
            }
            self.retry = self.loop.schedule(afterMilliseconds: Self.retryMilliseconds) { [weak self] in
                guard let self, self.shell == owner else { return }
                self.retry = nil
                self.ask(owner, attempt: attempt + 1)
            }
        }
    }

    private func update(_ now: GnomeExtensionState?) {
        guard now != problem else { return }
        problem = now
        onChange?(now)
    }
}
