#if canImport(Glibc)
import Glibc
#endif
import Locking
public import UndoCore
import SystemCalls

/// A large push's actions, written to a file of their own before the push
/// is handled (`PayloadFiles.write`), so that storing them never holds the
/// loop. Once a committed row names the file it is kept (`keep`); a file
/// no committed row names is removed when the last reference to it goes (a
/// push refused or merged, a client that left first, a failed commit).
public final class PayloadFile: Sendable {
    /// The file's name in the payloads directory.
    public let name: String
    /// Its path.
    let path: String
    /// The actions the file holds, as they arrived.
    public let actions: EncodedActions
    /// The CRC-32C of the file's bytes (`PayloadChecksum`).
    public let checksum: UInt32
    /// Whether a committed row names it.
    private let kept = Lock(false)

    init(name: String, path: String, actions: EncodedActions, checksum: UInt32) {
        self.name = name
        self.path = path
        self.actions = actions
        self.checksum = checksum
    }

    /// A committed row names the file: it stays when this goes.
    public func keep() {
        kept.withLock { $0 = true }
    }

    deinit {
        if !kept.withLock({ $0 }) { _ = SystemCall.unlink(path) }
    }
}
