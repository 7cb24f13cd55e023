extension UndoManager {
    /// A change of what the undo and redo menu items should say.
    public struct Change: Sendable, Equatable {
        /// What happened.
        public enum Kind: Sendable, Equatable {
            /// A group was registered.
            case registered
            /// A group was undone (here, by the global key, or by undoctl).
            case undone
            /// A group was redone.
            case redone
            /// `removeAllActions`.
            case removedAll
            /// The history was brought in line with undod's (a limit dropped
            /// old groups, a push failed, undod restarted).
            case synchronized
        }
        /// What happened.
        public let kind: Kind
        /// `canUndo` after it.
        public let canUndo: Bool
        /// `canRedo` after it.
        public let canRedo: Bool
        /// `undoActionName` after it.
        public let undoActionName: String
        /// `redoActionName` after it.
        public let redoActionName: String
        /// Whether an undo or redo came from outside this manager (the global
        /// key, `undoctl`, another connection) rather than its `undo()`/`redo()`.
        public let fromOutside: Bool
    }
}
