/// One incoming method call, to be answered exactly once: at once, or later
/// (an undo that waits for the application's `Apply`).
public final class MethodCall {
    /// The call as it arrived.
    public let message: Message
    /// Its arguments, checked against the method's signature and read
    /// before the handler runs (`ObjectServer`), unless the method reads
    /// them in place (`Interface.Method.readsArgumentsInPlace`): then on
    /// first use, empty should they not read.
    public var arguments: [DBusValue] {
        if let decoded { return decoded }
        let values = message.arguments
        decoded = values
        return values
    }

    /// The arguments, once decoded.
    private var decoded: [DBusValue]?
    /// The caller's unique name.
    public let sender: String
    /// Whether the call has been answered.
    public private(set) var isAnswered = false

    private let connection: Connection

    init(message: Message, connection: Connection) {
        self.message = message
        self.sender = message.sender ?? ""
        self.connection = connection
    }

    /// Reads every argument now; false when they cannot be read as the
    /// signature says (`ObjectServer` then answers `InvalidArgs`).
    func decodeArguments() -> Bool {
        guard decoded == nil else { return true }
        decoded = message.decodedArguments()
        return decoded != nil
    }

    /// The argument at `index` alone, the others not decoded: a name after
    /// a large array costs nothing for the array. Nil when there is none or
    /// it cannot be read.
    public func argument(_ index: Int) -> DBusValue? {
        if let decoded { return index < decoded.count ? decoded[index] : nil }
        return message.argument(index)
    }

    /// What `body` reads with a reader of the arguments in order, each
    /// once, where they lie (`ArgumentReader`): for a handler that reads
    /// several of its arguments itself. The reader must not leave `body`.
    public func readingArguments<T>(_ body: (inout ArgumentReader) -> T) -> T {
        message.readingArguments(body)
    }

    /// Every byte array of the arguments at `indices` (each an `ay`, an
    /// `aay` or an array of structs of `ay`s, as `a(ayay)`), in order,
    /// packed into one buffer straight from the message: each array's
    /// length as a little-endian `u32` (D-Bus's own framing of an array,
    /// without padding), then its bytes. No value is made for any array;
    /// nil when an argument is of another type or cannot be read.
    public func packedByteArrays(at indices: Range<Int>) -> [UInt8]? {
        message.packedByteArrays(at: indices)
    }

    /// The bytes in the byte arrays of the arguments at `indices` (as
    /// `packedByteArrays` takes them) when they exceed `limit`, counted in
    /// the message without copying them: how a call too big to keep is
    /// refused before it costs a copy. Nil when they are within `limit` or
    /// of another type. An array no bigger than `limit` on the wire is not
    /// walked.
    public func byteArrayBytes(at indices: Range<Int>, beyond limit: Int) -> Int? {
        // The arrays are inside the message: one no bigger than `limit` cannot carry more.
        guard message.wireSize > limit else { return nil }
        var total = 0
        for index in indices {
            guard let bytes = message.byteArrayBytes(at: index, limit: limit) else { return nil }
            total += bytes
        }
        return total > limit ? total : nil
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
