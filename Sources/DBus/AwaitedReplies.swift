import Loop

/// The calls a connection sent and awaits replies to, by serial, each with
/// the loop timer that gives up on it (none for one sent `untilAnswered`).
/// Every call gets exactly one answer: its reply, its timeout (`NoReply`),
/// or the connection's closing (`Disconnected`). Confined to the loop.
struct AwaitedReplies {
    /// What gets the answer, and the timer that gives up.
    private struct Awaited {
        let handler: (Result<Message, DBusError>) -> Void
        let timer: EventLoop.Token?
    }

    private let loop: EventLoop
    private var awaited: [UInt32: Awaited] = [:]

    /// None awaited yet, on `loop`.
    init(loop: EventLoop) {
        self.loop = loop
    }

    /// Whether the call numbered `serial` awaits its reply.
    func contains(_ serial: UInt32) -> Bool { awaited[serial] != nil }

    /// Awaits the reply to `serial`, for `handler`, with `timer` (made by
    /// the caller, which calls `timedOut` when it fires). A serial still
    /// awaited after 2³² messages more is not coming back: its timer goes.
    mutating func add(_ serial: UInt32, timer: EventLoop.Token?,
                      handler: @escaping (Result<Message, DBusError>) -> Void) {
        if let stale = awaited.updateValue(Awaited(handler: handler, timer: timer), forKey: serial) {
            stale.timer.map(loop.remove)
        }
    }

    /// The handler of the call awaiting `serial`, no longer awaited (its
    /// timer removed); nil when it is not awaited any more.
    mutating func take(_ serial: UInt32) -> ((Result<Message, DBusError>) -> Void)? {
        guard let entry = awaited.removeValue(forKey: serial) else { return nil }
        entry.timer.map(loop.remove)
        return entry.handler
    }

    /// The call `serial` waited too long: its handler, no longer awaited,
    /// for the caller to give `NoReply` once this access has ended (a
    /// handler may well send another call, which adds to these); nil when
    /// it is not awaited any more.
    mutating func timedOut(_ serial: UInt32) -> ((Result<Message, DBusError>) -> Void)? {
        awaited.removeValue(forKey: serial)?.handler
    }

    /// Fails every call still awaited with `error`, each on the loop's next
    /// turn (the connection closed).
    mutating func failAll(_ error: DBusError) {
        let all = awaited.values
        awaited.removeAll()
        for entry in all {
            entry.timer.map(loop.remove)
            let handler = entry.handler
            loop.soon { handler(.failure(error)) }
        }
    }
}
