/// One incoming method call, to be answered exactly once: at once, or later
/// (an undo that waits for the application's `Apply`).
public final class MethodCall {
    /// The call as it arrived.
    public let message: Message
    /// Its arguments, already checked against the method's signature.
    public let arguments: [DBusValue]
    /// The caller's unique name.
    public let sender: String
    /// Whether the call has been answered.
    public private(set) var isAnswered = false

    private let connection: Connection

    init(message: Message, arguments: [DBusValue], connection: Connection) {
        self.message = message
        self.arguments = arguments
        self.sender = message.sender ?? ""
        self.connection = connection
    }

    /// Answers with success and `values`. A reply that cannot be built (an
    /// invalid value from the handler) answers `Failed` instead of crashing.
    public func reply(_ values: [DBusValue] = []) {
        guard !isAnswered else { return }
        isAnswered = true
        guard !message.noReplyExpected else { return }
        do {
            connection.send(try message.makeReply(values))
        } catch {
            isAnswered = false
            fail(error)
        }
    }

    /// Answers with an error.
    public func fail(_ error: DBusError) {
        guard !isAnswered else { return }
        isAnswered = true
        guard !message.noReplyExpected, let reply = message.makeErrorReply(error) else { return }
        connection.send(reply)
    }

    /// Answers with the outcome of `body`: its values, or the `DBusError` it threw.
    public func answer(_ body: () throws(DBusError) -> [DBusValue]) {
        do { reply(try body()) } catch { fail(error) }
    }
}
