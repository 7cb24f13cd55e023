/// One action of a group: the payload that undoes it and the one that
/// redoes it, opaque to undod, read only by the application.
public struct UndoAction: Sendable, Equatable {
    /// What undoes the action.
    public var undo: [UInt8]
    /// What redoes it.
    public var redo: [UInt8]

    /// An action with these payloads.
    public init(undo: [UInt8], redo: [UInt8]) {
        self.undo = undo
        self.redo = redo
    }
}
