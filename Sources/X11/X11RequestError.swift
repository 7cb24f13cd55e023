internal import CXCB

/// An X protocol error: which request failed and why.
public struct X11RequestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The error code (10: `BadAccess`, 3: `BadWindow`, …).
    public var code: UInt8
    /// The failed request's major opcode (33: `GrabKey`).
    public var majorOpcode: UInt8
    /// The failed request's full sequence number.
    public var sequence: UInt32

    /// `BadAccess`: for a grab, another client holds that key already.
    public static let badAccess: UInt8 = 10

    /// The error as a sentence: `BadAccess (10) on request 33, sequence 17`.
    public var description: String {
        let names: [UInt8: String] = [1: "BadRequest", 2: "BadValue", 3: "BadWindow", 4: "BadPixmap", 5: "BadAtom",
                                      8: "BadMatch", 9: "BadDrawable", 10: "BadAccess", 11: "BadAlloc",
                                      16: "BadLength", 17: "BadImplementation"]
        return "\(names[code] ?? "error") (\(code)) on request \(majorOpcode), sequence \(sequence)"
    }

    /// Reads an error as libxcb delivers it (`xcb_generic_error_t`).
    init(raw: UnsafeRawPointer) {
        let error = raw.load(as: xcb_generic_error_t.self)
        code = error.error_code
        majorOpcode = error.major_code
        sequence = error.full_sequence
    }
}
