public import FileTrash

/// Where a command runs: the shell's working directory, the user's trash
/// and the terminal it prints to and asks on.
public struct CommandContext {
    /// The shell's working directory (absolute).
    public var directory: String
    /// The user's trash.
    public var trash: Trash
    /// Where it prints and asks.
    public var terminal: any CommandTerminal

    /// A context with these parts.
    public init(directory: String, trash: Trash, terminal: any CommandTerminal) {
        self.directory = directory
        self.trash = trash
        self.terminal = terminal
    }

    /// `operand` as an absolute path: as given where it is one, else in
    /// the working directory.
    func absolute(_ operand: String) -> String {
        operand.hasPrefix("/") ? operand : (directory == "/" ? "/" : directory + "/") + operand
    }

    /// The trash directory an undo would move a new item at `path` to (its
    /// volume's); nil, with a line saying the item cannot be undone (as
    /// typed, `shown`), where that volume has no trash the user may use.
    func trashDirectory(forNew path: String, shown: String, command: String) -> String? {
        do {
            return try trash.directory(forItemAt: path)
        } catch {
            terminal.warn("\(command): \(quoted(shown)) cannot be undone: \(error)")
            return nil
        }
    }
}
