#if canImport(Glibc)
import Glibc
#endif
public import UndoCore

/// A large push's actions, written to a file of their own before the push
/// is handled (`PayloadFiles.write`), so that storing them never holds the
/// loop. A group adopts the file when its row is committed (the file then
/// takes the group's id as its name); a file no group adopted is removed
/// when the last reference to it goes.
public final class PayloadFile: Sendable {
    /// The file's name while no group has adopted it.
    let temporaryPath: String
    /// The actions the file holds, as they arrived.
    public let actions: EncodedActions
    /// The CRC-32C of the file's bytes (`PayloadChecksum`).
    public let checksum: UInt32

    init(temporaryPath: String, actions: EncodedActions, checksum: UInt32) {
        self.temporaryPath = temporaryPath
        self.actions = actions
        self.checksum = checksum
    }

    deinit {
        // Adopted files were renamed away: this then finds nothing.
        unlink(temporaryPath)
    }
}
