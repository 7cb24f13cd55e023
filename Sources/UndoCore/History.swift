/// Both sides of a stack as the narrow interface (`Stack.History`) shows them.
public struct History: Sendable, Hashable {
    /// The undo side, top (next to undo) first.
    public var undo: [HistoryItem]
    /// The redo side, top (next to redo) first.
    public var redo: [HistoryItem]

    /// A history with the given sides.
    public init(undo: [HistoryItem], redo: [HistoryItem]) {
        self.undo = undo
        self.redo = redo
    }
}
