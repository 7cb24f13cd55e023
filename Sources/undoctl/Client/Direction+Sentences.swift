import UndoCore

extension Direction {
    /// The past tense for sentences: `Undid`, `Redid`.
    var pastTense: String { self == .undo ? "Undid" : "Redid" }
}
