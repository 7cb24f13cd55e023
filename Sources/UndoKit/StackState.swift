import Undo1

/// A stack's state as undod reports it (its properties, read at once).
public struct StackState: Sendable, Equatable {
    /// Whether there is something to undo.
    public let canUndo: Bool
    /// Whether there is something to redo.
    public let canRedo: Bool
    /// The next undo's name, `""` when none.
    public let undoName: String
    /// The next redo's name, `""` when none.
    public let redoName: String
    /// Groups on the undo side.
    public let undoDepth: UInt32
    /// Groups on the redo side.
    public let redoDepth: UInt32
    /// Whether the present state is the clean (saved) one.
    public let clean: Bool

    /// A state with these fields (for an app's tests).
    public init(canUndo: Bool, canRedo: Bool, undoName: String, redoName: String, undoDepth: UInt32,
                redoDepth: UInt32, clean: Bool) {
        self.canUndo = canUndo
        self.canRedo = canRedo
        self.undoName = undoName
        self.redoName = redoName
        self.undoDepth = undoDepth
        self.redoDepth = redoDepth
        self.clean = clean
    }

    /// The state in `properties`.
    init(_ properties: StackProperties) {
        canUndo = properties.canUndo
        canRedo = properties.canRedo
        undoName = properties.undoName
        redoName = properties.redoName
        undoDepth = properties.undoDepth
        redoDepth = properties.redoDepth
        clean = properties.clean
    }
}
