/// Reads a call's arguments in order, each once, straight from the bytes
/// the call came in (`MethodCall.readingArguments`): a handler that reads
/// several of its arguments itself (a method that reads them in place,
/// `Interface.Method.readsArgumentsInPlace`) walks the message once,
/// where `MethodCall.argument(_:)` starts again from the body for each.
///
/// Lent to a closure and valid only inside it: it reads the message's
/// bytes where they lie. Once a read fails (an argument of another type,
/// or none left), every later read is nil too.
public struct ArgumentReader {
    /// The reader at the next argument; nil once a read failed.
    private var decoder: WireDecoder?
    /// The body's signature.
    private let signature: [UInt8]
    /// Where the next argument's type starts in `signature`.
    private var next = 0

    /// A reader at the first argument of the message in the wire format
    /// `bytes`, whose body has `signature`.
    init(bytes: UnsafeRawBufferPointer, signature: [UInt8]) {
        self.decoder = WireDecoder.atBody(of: bytes)
        self.signature = signature
    }

    /// The next argument as a value; nil when none is left or it does not read.
    public mutating func value() -> DBusValue? {
        read { decoder, signature, type in decoder.value(signature, type) }
    }

    /// The next argument, a string (`s`), as text, no value made for it;
    /// nil when it is of another type or does not read.
    public mutating func string() -> String? {
        read { decoder, signature, type in
            type.count == 1 && signature[type.lowerBound] == UInt8(ascii: "s") ? decoder.text(lengthBytes: 4) : nil
        }
    }

    /// The next argument, an `a{sv}`, as `DBusValue.stringDictionary`
    /// reads it; an empty one (most options and hints) costs no value.
    /// Nil when it is of another type or does not read.
    public mutating func stringDictionary() -> [String: DBusValue]? {
        read { decoder, signature, type in
            // `a{s…}`: what `DBusValue.stringDictionary` reads.
            guard type.count >= 5, signature[type.lowerBound] == UInt8(ascii: "a"),
                  signature[type.lowerBound + 1] == UInt8(ascii: "{"),
                  signature[type.lowerBound + 2] == UInt8(ascii: "s") else { return nil }
            if decoder.isAtEmptyArray { return decoder.skip(signature, type) ? [:] : nil }
            return decoder.value(signature, type)?.stringDictionary
        }
    }

    /// Moves past the next `count` arguments without reading what they
    /// hold (an array in one step, by its length); false when they do not
    /// read.
    public mutating func skip(_ count: Int) -> Bool {
        for _ in 0..<count {
            guard read({ decoder, signature, type in decoder.skip(signature, type) ? true : nil }) != nil else { return false }
        }
        return true
    }

    /// The byte arrays of the next `count` arguments, packed into one
    /// buffer as `MethodCall.packedByteArrays` packs them; nil when one
    /// is of another type or does not read.
    public mutating func packedByteArrays(count: Int) -> [UInt8]? {
        guard var reading = decoder, count > 0,
              let (packed, after) = ByteArrayReader.packed(&reading, signature, from: next, count: count) else {
            decoder = nil
            return nil
        }
        decoder = reading
        next = after
        return packed
    }

    /// Reads the next argument with `body`, given the signature and the
    /// range of the argument's type in it, and moves past it; a nil from
    /// `body` stops the reader.
    private mutating func read<T>(_ body: (inout WireDecoder, [UInt8], Range<Int>) -> T?) -> T? {
        guard var reading = decoder, let end = WireDecoder.completeTypeEnd(signature, from: next),
              let result = body(&reading, signature, next..<end) else {
            decoder = nil
            return nil
        }
        decoder = reading
        next = end
        return result
    }
}
