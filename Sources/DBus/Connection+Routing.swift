internal import CDBus
import Loop

/// Where an incoming message goes: a method call to the `ObjectServer`
/// (or, for `Peer`, answered here), a signal to the subscriptions that
/// match it, a reply to the call that awaits it — at once, or behind a
/// large call (`HeldMessages`).
extension Connection {
    /// Decides what an incoming message is for. It only queues work for the
    /// loop, at once or, behind a large call, in the lane (`IncomingLanes`).
    func route(_ message: Message) {
        let kind = message.kind
        if kind == .methodCall, message.interface == StandardInterface.peer {
            answerPeer(message)
            return
        }
        let sender = message.sender ?? ""
        let bytes = kind == .methodCall ? message.wireSize : 0
        let mustHold = held.mustHold(kind, sender: sender, bytes: bytes)
        let work: () -> Void
        switch kind {
        case .signal:
            let handlers = subscriptions.sorted(by: { $0.key < $1.key })
                .filter { $0.value.match.matches(message) }.map(\.value.handler)
            guard !handlers.isEmpty else { return }
            work = { for handler in handlers { handler(message) } }
        case .methodCall:
            guard let server = objectServer else { return }
            guard mustHold else { return loop.soon { [weak server] in server?.dispatch(message) } }
            // A full lane takes no more large calls (their senders hear why at
            // once); signals and replies are small and never dropped.
            if held.mustRefuse(callOf: bytes) {
                return MethodCall(message: message, connection: self).fail(refusalWhenFull(message))
            }
            return held.holdCall(message, sender: sender, bytes: bytes, server: server)
        case .methodReturn, .error:
            let serial = message.replySerial
            guard awaiting.contains(serial) else { return }
            let result: Result<Message, DBusError> = message.error.map { .failure($0) } ?? .success(message)
            if mustHold {
                // Still awaited while it waits in the lane, so that closing
                // the connection meanwhile fails the call (exactly once).
                work = { [weak self] in self?.awaiting.take(serial)?(result) }
            } else {
                let handler = awaiting.take(serial)
                work = { handler?(result) }
            }
        default:
            return
        }
        guard mustHold else { return loop.soon(work) }
        held.hold(work, sender: sender)
    }

    /// Answers `org.freedesktop.DBus.Peer`, as libdbus does for every
    /// connection: `Ping` with nothing, `GetMachineId` with this machine's ID.
    private func answerPeer(_ call: Message) {
        guard !call.noReplyExpected else { return }
        let reply: Message?
        switch call.member {
        case "Ping":
            reply = try? call.makeReply([])
        case "GetMachineId":
            reply = try? call.makeReply([.string(Self.machineID)])
        default:
            reply = call.makeErrorReply(.unknownMethod(
                "org.freedesktop.DBus.Peer has no method “\(call.member ?? "")”; it has Ping and GetMachineId."))
        }
        if let reply { send(reply) }
    }

    /// This machine's D-Bus ID (`dbus_get_local_machine_id`).
    private static let machineID: String = {
        guard let id = dbus_get_local_machine_id() else { return "" }
        defer { dbus_free(id) }
        return String(cString: id)
    }()
}
