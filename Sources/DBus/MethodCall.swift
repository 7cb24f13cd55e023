/// One incoming method call, to be answered exactly once: at once, or later
/// (an undo that waits for the application's `Apply`).
public final class MethodCall {
    /// The call as it arrived.
    public let message: Message
    /// Its arguments, checked against the method's signature; decoded on
    /// first use (`argument(_:)` and `lengthPrefixedPairs(at:)` read less).
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
    /// What was made for the call while it waited in its lane
    /// (`Connection.prepareLargeCall`); nil for most.
    public var preparation: AnyObject? {
        get { message.preparation }
        set { message.preparation = newValue }
    }
    /// Whether the call has been answered.
    public private(set) var isAnswered = false

    private let connection: Connection

    init(message: Message, connection: Connection) {
        self.message = message
        self.sender = message.sender ?? ""
        self.connection = connection
    }

    /// The argument at `index` alone, the others not decoded: a name after
    /// a large array costs nothing for the array.
    public func argument(_ index: Int) -> DBusValue? {
        if decoded == nil, let value = message.argument(index) { return value }
        return index < arguments.count ? arguments[index] : nil
    }

    /// The argument at `index`, an `a(ayay)`, as one buffer: for each pair,
    /// the first array's length (4 bytes, little-endian) and bytes, then the
    /// second's. No `DBusValue` is made for each element; nil when the
    /// argument is no `a(ayay)`.
    public func lengthPrefixedPairs(at index: Int) -> [UInt8]? {
        if let buffer = message.lengthPrefixedPairs(at: index) { return buffer }
        guard index < arguments.count, let elements = arguments[index].elements else { return nil }
        return Self.lengthPrefixed(elements.flatMap { [$0.fields?.first?.bytes ?? [], $0.fields?.last?.bytes ?? []] })
    }

    /// The payload bytes of the arguments at `indices` (each an `ay` or an
    /// `a(ayay)`) when they exceed `limit`, counted in the message without
    /// copying them: how a call too big to keep is refused before it costs
    /// a copy. Nil when they are within `limit` or of another type. An
    /// `a(ayay)` no bigger than `limit` on the wire is not walked.
    public func payloadBytes(at indices: Range<Int>, beyond limit: Int) -> Int? {
        // The payloads are inside the message: one no bigger than `limit` cannot carry more.
        guard message.wireSize > limit else { return nil }
        var total = 0
        for index in indices {
            guard let bytes = message.payloadBytes(at: index, limit: limit) else { return nil }
            total += bytes
        }
        return total > limit ? total : nil
    }

    /// The `ay` arguments at `indices`, one after another, as one buffer laid
    /// out as `lengthPrefixedPairs` lays out a pair (`Push`'s undo and redo
    /// payloads: one copy from the message); nil when one is no `ay`.
    public func lengthPrefixedByteArrays(at indices: Range<Int>) -> [UInt8]? {
        if let buffer = message.lengthPrefixedByteArrays(at: indices) { return buffer }
        guard indices.upperBound <= arguments.count else { return nil }
        let arrays = indices.compactMap { arguments[$0].bytes }
        return arrays.count == indices.count ? Self.lengthPrefixed(arrays) : nil
    }

    /// Each array's length (4 bytes, little-endian), then its bytes.
    private static func lengthPrefixed(_ arrays: [[UInt8]]) -> [UInt8] {
        var buffer: [UInt8] = []
        for bytes in arrays {
            withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { buffer += $0 }
            buffer += bytes
        }
        return buffer
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
