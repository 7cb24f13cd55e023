#if canImport(Glibc)
internal import Glibc
#endif

/// A file descriptor that came over the bus, owned by whoever holds this:
/// closed when it ends, never copied (so never closed twice).
public struct ReceivedDescriptor: ~Copyable {
    /// The descriptor's number, for reading it (`/proc/self/fdinfo/N`)
    /// while this is held.
    public let rawValue: Int32

    /// Takes over `rawValue`.
    init(taking rawValue: Int32) {
        self.rawValue = rawValue
    }

    deinit {
        _ = close(rawValue)
    }
}
