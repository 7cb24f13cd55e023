import DBus
import Loop
import Logging

/// The desktop notification after a triggered undo or redo, through
/// `org.freedesktop.Notifications`: one notification, replaced in place
/// (`replaces_id`) rather than piled up, whose buttons carry an `Offer` (what
/// pressing them does, decided by `TriggerHandler`). Every call out is
/// asynchronous. Notifications are sent only while a notification server
/// owns the name (followed by NameOwnerChanged), and never start one by
/// D-Bus activation (a server started headless has nowhere to show and
/// may crash): elsewhere nothing is built, nothing is sent, nothing waits.
/// Confined to the loop.
final class FeedbackNotifier<Offer> {
    /// A button: the action key the server reports, and its label.
    struct Button {
        /// The action key the server reports when it is pressed.
        let key: String
        /// What the button says.
        let label: String
    }

    /// One notification's content.
    struct Note {
        /// The headline: "Undid Typing in Notes".
        var summary: String
        /// The text under it (may be empty).
        var body = ""
        /// A freedesktop icon name.
        var icon = "edit-undo"
        /// The buttons; the first is also the default action (`default`:
        /// clicking the notification itself).
        var buttons: [Button] = []
        /// How long the server shows it, in ms; -1 lets the server decide.
        var timeoutMilliseconds: Int32 = -1
        /// 0 low, 1 normal, 2 critical.
        var urgency: UInt8 = 0
        /// What the buttons do.
        var offer: Offer?
    }

    /// The bus name of every notification server.
    static var serverName: String { "org.freedesktop.Notifications" }

    /// Called when a button of a shown notification is pressed, with its
    /// offer and the action key (`default` for a click on the notification).
    var onAction: ((Offer, String) -> Void)?
    /// Called when a notification with an offer is closed unanswered
    /// (expired, dismissed, or closed by undod).
    var onClosed: ((Offer) -> Void)?
    /// Called when a notification with an offer could not be shown.
    var onUndelivered: ((Offer, DBusError) -> Void)?
    /// Called when a notification server comes to the bus.
    var onServerAppeared: (() -> Void)?

    private let connection: Connection
    private let log: Log
    /// The notification shown last: its id, and its offer until answered.
    private var current: (id: UInt32, offer: Offer?)?
    /// The server's unique name: only its signals are believed.
    private var server: String?
    private var sending = false
    private var queued: Note?
    private var subscribed = false
    private var reportedAbsence = false
    /// Whether a notification server owns the name now.
    private var serverRuns = false

    /// A notifier that calls out on `connection`, following whether a
    /// notification server is there.
    init(connection: Connection, log: Log) {
        self.connection = connection
        self.log = log
        connection.subscribe(.nameOwnerChanged(name: Self.serverName)) { [weak self] message in
            self?.serverChanged(runs: !(message.arguments.last?.string ?? "").isEmpty)
        }
        ask("GetNameOwner", [.string(Self.serverName)]) { [weak self] reply in
            if reply.first?.string?.isEmpty == false { self?.serverChanged(runs: true) }
        }
    }

    private func serverChanged(runs: Bool) {
        let appeared = runs && !serverRuns
        serverRuns = runs
        if appeared { onServerAppeared?() }
    }

    /// Whether a notification can be shown at all.
    var isAvailable: Bool { serverRuns }

    /// Whether a notification server runs now (one that could show a question).
    var isRunning: Bool { serverRuns }

    /// Shows `note` in place of the notification shown last. While an
    /// earlier one is still being sent, only the newest waits. Where no
    /// notification server is, nothing is sent (an offer is undelivered).
    func show(_ note: Note) {
        guard isAvailable else {
            if let offer = note.offer {
                onUndelivered?(offer, DBusError(name: DBusError.Names.serviceUnknown,
                                                message: "No notification server is on the bus."))
            }
            return
        }
        subscribe()
        if sending {
            queued = note
        } else {
            send(note)
        }
    }

    /// Closes the notification shown last, if it still carries an offer.
    func withdraw() {
        guard let shown = current, shown.offer != nil else { return }
        current?.offer = nil
        call("CloseNotification", [.uint32(shown.id)]) { _ in }
    }

    private func send(_ note: Note) {
        sending = true
        var actions: [String] = []
        if let first = note.buttons.first { actions += ["default", first.label] }
        for button in note.buttons { actions += [button.key, button.label] }
        let hints: [String: DBusValue] = ["urgency": .byte(note.urgency), "transient": .bool(true)]
        log.debug(.notifyAsking, "asking the notification server to show “\(note.summary)”.")
        call("Notify", [.string("undod"), .uint32(current?.id ?? 0), .string(note.icon), .string(note.summary),
                        .string(note.body), .strings(actions), .vardict(hints), .int32(note.timeoutMilliseconds)]) {
            [weak self] answer in
            guard let self else { return }
            self.sending = false
            switch answer {
            case .success(let reply):
                self.server = reply.sender
                if let id = reply.arguments.first?.uint32 {
                    self.current = (id, note.offer)
                    self.log.debug(.notifyShown, "notification \(id) shown: “\(note.summary)”.")
                }
                self.reportedAbsence = false
            case .failure(let error):
                self.current = nil
                if !self.reportedAbsence {
                    self.reportedAbsence = true
                    self.log.debug(.notifyFailed, "no notification shown (\(error.name): \(error.message)).")
                }
                if let offer = note.offer { self.onUndelivered?(offer, error) }
            }
            if let next = self.queued {
                self.queued = nil
                self.send(next)
            }
        }
    }

    /// Asks the bus itself, ignoring failures.
    private func ask(_ member: String, _ arguments: [DBusValue], then handler: @escaping ([DBusValue]) -> Void) {
        guard let message = try? Message.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                                    interface: "org.freedesktop.DBus", member: member,
                                                    arguments: arguments) else { return }
        connection.call(message, timeoutMilliseconds: 5_000) { answer in
            if case .success(let reply) = answer { handler(reply.arguments) }
        }
    }

    private func call(_ member: String, _ arguments: [DBusValue],
                      then handler: @escaping (Result<Message, DBusError>) -> Void) {
        do {
            let message = try Message.methodCall(
                destination: Self.serverName, path: "/org/freedesktop/Notifications",
                interface: "org.freedesktop.Notifications", member: member, arguments: arguments)
            // A server that left between NameOwnerChanged and this call is
            // not started again by the bus.
            message.setNoAutoStart()
            connection.call(message, timeoutMilliseconds: 5_000, reply: handler)
        } catch {
            handler(.failure(error))
        }
    }

    private func subscribe() {
        guard !subscribed else { return }
        subscribed = true
        let match = { (member: String) in
            SignalMatch(sender: Self.serverName, path: "/org/freedesktop/Notifications",
                        interface: "org.freedesktop.Notifications", member: member)
        }
        connection.subscribe(match("ActionInvoked")) { [weak self] message in
            let arguments = message.arguments
            guard let self, let id = arguments.first?.uint32, let key = arguments.dropFirst().first?.string,
                  let offer = self.take(id: id, from: message.sender) else { return }
            self.onAction?(offer, key)
        }
        connection.subscribe(match("NotificationClosed")) { [weak self] message in
            guard let self, let id = message.arguments.first?.uint32,
                  let offer = self.take(id: id, from: message.sender) else { return }
            self.onClosed?(offer)
        }
    }

    /// The offer of notification `id`, taken (it is answered once), if the
    /// signal comes from the server that showed it.
    private func take(id: UInt32, from sender: String?) -> Offer? {
        guard let shown = current, shown.id == id, sender != nil, sender == server else { return nil }
        current?.offer = nil
        return shown.offer
    }
}
