import Undo1
import UndoCore

extension StackProperties {
    /// The properties of `record` now.
    init(of record: StackRecord) {
        let stack = record.stack
        self.init(appId: record.appId, document: record.document, title: record.title, owner: record.owner,
                  canUndo: stack.canUndo, canRedo: stack.canRedo, undoName: stack.undoName, redoName: stack.redoName,
                  undoDepth: UInt32(clamping: stack.undoDepth), redoDepth: UInt32(clamping: stack.redoDepth),
                  limit: stack.settings.levels, bytes: stack.bytes, maxBytes: stack.settings.maxBytes,
                  clean: stack.isClean, persistent: record.persistent, globalTrigger: record.globalTrigger)
    }
}
