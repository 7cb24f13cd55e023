import DBus
import UndoCore

/// Where `Push` and `PushGroup` carry what they carry, and how their
/// actions are read as one `ActionCoding` buffer: one place for the stack's
/// handlers (`StackObject`) and for `PushPreparation`, which reads a large
/// push's actions before it is served.
enum PushMethod: String {
    /// `Push(s name, ay undo, ay redo, a{sv} hints)`.
    case push = "Push"
    /// `PushGroup(s name, a(ayay) actions, a{sv} hints)`.
    case pushGroup = "PushGroup"

    /// The index of the hints argument.
    var hintsIndex: Int { self == .push ? 3 : 2 }

    /// The arguments that hold payloads (each an `ay` or an `a(ayay)`).
    var payloads: Range<Int> { self == .push ? 1..<3 : 1..<2 }

    /// The call's actions, copied once out of the message: `Push`'s two
    /// payloads as one action, `PushGroup`'s pairs as they are (no value
    /// for each action: a group may hold 100,000). D-Bus packs byte arrays
    /// as `ActionCoding` lays payloads out (`MethodCall.packedByteArrays`:
    /// each its length, a little-endian `u32`, then its bytes), so the
    /// packed arrays are the buffer; nil when the arguments are not of
    /// those types or their payloads do not pair up.
    func actions(of call: MethodCall) -> EncodedActions? {
        call.packedByteArrays(at: payloads).flatMap(EncodedActions.init(encoded:))
    }

    /// `actions(of:)` read by `reader`, which stands at the first payload
    /// argument, and leaves it past the last.
    func actions(from reader: inout ArgumentReader) -> EncodedActions? {
        reader.packedByteArrays(count: payloads.count).flatMap(EncodedActions.init(encoded:))
    }
}
