import Loop

/// The bus's own services a connection uses: names and signal subscriptions.
extension Connection {
    // MARK: Names

    /// Asks the bus for `name` without queueing; returns whether we own it
    /// now. Runs the loop until the bus answers (meant for start-up).
    public func requestName(_ name: String) throws(DBusError) -> Bool {
        let reply = try callAndWait(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "RequestName", arguments: [.string(name), .uint32(4 /* DO_NOT_QUEUE */)])
        // 1: primary owner, 4: already the owner; 3: exists.
        return reply.first?.uint32 == 1 || reply.first?.uint32 == 4
    }

    // MARK: Signals

    /// Calls `handler` on the loop for every signal that fits `match`, and
    /// asks the bus to send them. Returns a number for `unsubscribe`.
    @discardableResult
    public func subscribe(_ match: SignalMatch, handler: @escaping (Message) -> Void) -> Int {
        loop.assertInLoop()
        let id = nextSubscription
        nextSubscription += 1
        subscriptions[id] = (match, handler)
        if let message = try? Message.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "AddMatch", arguments: [.string(match.rule)]) {
            message.setNoReplyExpected()
            send(message)
        }
        return id
    }

    /// Stops a subscription made by `subscribe`.
    public func unsubscribe(_ id: Int) {
        loop.assertInLoop()
        guard let (match, _) = subscriptions.removeValue(forKey: id) else { return }
        if let message = try? Message.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "RemoveMatch", arguments: [.string(match.rule)]) {
            message.setNoReplyExpected()
            send(message)
        }
    }

    /// Calls `handler(name, oldOwner, newOwner)` whenever a bus name changes
    /// owner (`""` for none): how a service learns that a client left.
    @discardableResult
    public func onNameOwnerChanged(_ handler: @escaping (String, String, String) -> Void) -> Int {
        subscribe(.nameOwnerChanged()) { message in
            let args = message.arguments.compactMap(\.string)
            guard args.count == 3 else { return }
            handler(args[0], args[1], args[2])
        }
    }
}
