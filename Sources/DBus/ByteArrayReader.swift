/// Reads the byte arrays of a message's arguments where they lie, with no
/// value made for any of them: what a `Push` or a `PushGroup` of 100,000
/// actions carries. Packs them into one buffer (each array's length, a
/// little-endian `u32` as D-Bus itself frames an array, without padding,
/// then its bytes), or counts their bytes before anything is copied. An
/// argument read here is an `ay`, an `aay` or an array of structs of
/// `ay`s (as `a(ayay)`); `WireDecoder` positions the reading.
enum ByteArrayReader {
    /// Every `ay` the arguments at `indices` hold, in order, packed into
    /// one buffer. For 100,000 elements a value or an array each was most
    /// of reading them: one pass checks the framing and sizes the buffer,
    /// a second copies. Nil when an argument is of another type or its
    /// framing is broken.
    static func packed(_ indices: Range<Int>, of bytes: UnsafeRawBufferPointer, signature: [UInt8]) -> [UInt8]? {
        guard !indices.isEmpty,
              case (var decoder, let type)? = WireDecoder.positioned(at: indices.lowerBound, of: bytes,
                                                                     signature: signature)
        else { return nil }
        return packed(&decoder, signature, from: type.lowerBound, count: indices.count)?.packed
    }

    /// `packed` of the `count` arguments at `decoder`'s read position, the
    /// first of type `signature[typeStart...]`, moving `decoder` past them;
    /// with where the type of the argument after them starts.
    static func packed(_ decoder: inout WireDecoder, _ signature: [UInt8], from typeStart: Int,
                       count: Int) -> (packed: [UInt8], next: Int)? {
        if let packed = plain(&decoder, signature, from: typeStart, count: count) {
            return (packed, typeStart + 2 * count)
        }
        let first = decoder
        var total = 0
        var start = typeStart
        for _ in 0..<count {
            guard let end = WireDecoder.completeTypeEnd(signature, from: start),
                  let shape = Shape(signature[start..<end]),
                  walk(&decoder, shape, { total += 4 + $0.count }) else { return nil }
            start = end
        }
        // The second pass takes the same types the first checked.
        var second = first
        start = typeStart
        let bytes = decoder.bytes
        let packed = [UInt8](unsafeUninitializedCapacity: total) { buffer, written in
            let output = UnsafeMutableRawBufferPointer(buffer)
            for _ in 0..<count {
                guard let end = WireDecoder.completeTypeEnd(signature, from: start),
                      let shape = Shape(signature[start..<end]) else { return }
                _ = walk(&second, shape) {
                    append(UnsafeRawBufferPointer(rebasing: bytes[$0]), prefixed: output, at: &written)
                }
                start = end
            }
        }
        return (packed, start)
    }

    /// The bytes in the byte arrays of argument `index`, counted where they
    /// lie: an `ay`'s length; for an array of them, 0 when its whole wire
    /// size is within `limit` (what it holds then fits), else the sum of
    /// its arrays. Nil for another type or broken framing.
    static func bytes(_ index: Int, of bytes: UnsafeRawBufferPointer, signature: [UInt8], limit: Int) -> Int? {
        guard case (var decoder, let type)? = WireDecoder.positioned(at: index, of: bytes, signature: signature),
              let shape = Shape(signature[type]) else { return nil }
        if case .array = shape {
            var probe = decoder
            guard let length = probe.fixed(UInt32.self) else { return nil }
            guard Int(length) > limit else { return 0 }
        }
        var total = 0
        return walk(&decoder, shape, { total += $0.count }) ? total : nil
    }

    /// How byte arrays sit in an argument read here.
    enum Shape {
        /// An `ay`.
        case single
        /// An array of `ay`s (`aay`, `fields` 0) or of structs of `fields` `ay`s.
        case array(fields: Int)

        /// The shape of the complete type `type`; nil when it holds anything but byte arrays.
        init?(_ type: ArraySlice<UInt8>) {
            let a = UInt8(ascii: "a"), y = UInt8(ascii: "y")
            let start = type.startIndex
            /// Whether `type` holds `ay` at `index`.
            func isByteArray(at index: Int) -> Bool { type[index] == a && type[index + 1] == y }
            if type.count == 2, isByteArray(at: start) {
                self = .single
            } else if type.count == 3, type[start] == a, isByteArray(at: start + 1) {
                self = .array(fields: 0)
            } else if type.count >= 5, type.count % 2 == 1, type[start] == a, type[start + 1] == UInt8(ascii: "("),
                      type.last == UInt8(ascii: ")"),
                      stride(from: start + 2, to: type.endIndex - 1, by: 2).allSatisfy(isByteArray(at:)) {
                self = .array(fields: (type.count - 3) / 2)
            } else {
                return nil
            }
        }
    }

    /// `packed` when every one of the `count` arguments is an `ay`
    /// (`Push`'s two payloads): each array's range read twice, no shape
    /// walked; nil when one is of another type or does not read.
    private static func plain(_ decoder: inout WireDecoder, _ signature: [UInt8], from typeStart: Int,
                              count: Int) -> [UInt8]? {
        let types = typeStart..<(typeStart + 2 * count)
        guard types.upperBound <= signature.count,
              stride(from: types.lowerBound, to: types.upperBound, by: 2).allSatisfy({
                  signature[$0] == UInt8(ascii: "a") && signature[$0 + 1] == UInt8(ascii: "y")
              }) else { return nil }
        var probe = decoder
        var total = 0
        for _ in 0..<count {
            guard let range = probe.byteArrayRange() else { return nil }
            total += 4 + range.count
        }
        let bytes = decoder.bytes
        var reading = decoder
        let packed = [UInt8](unsafeUninitializedCapacity: total) { buffer, written in
            let output = UnsafeMutableRawBufferPointer(buffer)
            for _ in 0..<count {
                // Read once already: the same ranges again.
                guard let range = reading.byteArrayRange() else { return }
                append(UnsafeRawBufferPointer(rebasing: bytes[range]), prefixed: output, at: &written)
            }
        }
        decoder = reading
        return packed
    }

    /// Moves `decoder` past one argument of `shape`, calling `body` with
    /// where each of its byte arrays lies; false when its framing is broken.
    private static func walk(_ decoder: inout WireDecoder, _ shape: Shape, _ body: (Range<Int>) -> Void) -> Bool {
        guard case .array(let fields) = shape else {
            guard let range = decoder.byteArrayRange() else { return false }
            body(range)
            return true
        }
        guard let length = decoder.fixed(UInt32.self), decoder.align(fields == 0 ? 4 : 8) else { return false }
        let end = decoder.offset + Int(length)
        guard end <= decoder.bytes.count else { return false }
        while decoder.offset < end {
            guard fields == 0 || decoder.align(8) else { return false }
            for _ in 0..<max(fields, 1) {
                guard let range = decoder.byteArrayRange() else { return false }
                body(range)
            }
        }
        return decoder.offset == end
    }

    /// Writes `source`'s length (4 bytes, little-endian), then its bytes,
    /// into `output` at `written`, moving `written` past them: one array of
    /// `packed`.
    @inline(__always)
    private static func append(_ source: UnsafeRawBufferPointer, prefixed output: UnsafeMutableRawBufferPointer,
                               at written: inout Int) {
        output.storeBytes(of: UInt32(source.count).littleEndian, toByteOffset: written, as: UInt32.self)
        if !source.isEmpty {
            UnsafeMutableRawBufferPointer(rebasing: output[(written + 4)...]).copyMemory(from: source)
        }
        written += 4 + source.count
    }
}
