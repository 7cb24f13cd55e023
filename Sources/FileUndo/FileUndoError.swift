/// Why an undo or redo of a shell command did nothing: the files are not
/// as the command (or the last undo or redo) left them. Each is a sentence
/// naming the path; nothing changed.
public enum FileUndoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The files changed since: `reason` says how.
    case refused(String)
    /// What the undo would take back from the trash is no longer there
    /// (the user emptied the trash, or took it out): the step can never
    /// be undone again.
    case obsolete(String)

    /// The sentence.
    public var description: String {
        switch self {
        case .refused(let reason), .obsolete(let reason): reason
        }
    }
}
