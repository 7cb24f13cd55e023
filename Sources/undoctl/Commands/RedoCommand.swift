import UndoCore

/// `undoctl redo [TARGET] [-n N] [--last]`.
struct RedoCommand: Command {
    static let name = "redo"
    static let summary = "redo the last undone action of the focused stack, or of TARGET"
    static let usage = "[TARGET] [-n N] [--last]"
    static let discussion = """
        The mirror of undo: asks the application to redo the last action that \
        was undone, and prints it: Redid "Typing" in Text Editor. A new action \
        in the application clears what can be redone. Without TARGET it acts on \
        the focused stack; with --last, on the stack whose next redo is the \
        newest (what `undoctl undo --last` just undid); with -n N it repeats, \
        stopping at the first failure (exit 1 after printing what was done).
        """
    static let options = StepRunner.options
    static let takesTarget = true
    static let examples = [
        Example("undoctl redo", "redo in the focused application"),
        Example("undoctl redo --last", "redo what `undoctl undo --last` undid"),
        Example("undoctl redo 3 -n 2", "redo 2 steps of stack 3"),
    ]

    /// The steps to take.
    let runner: StepRunner

    init(_ arguments: ParsedArguments) throws(CommandError) {
        runner = try StepRunner(.redo, arguments, command: Self.name)
    }

    func run(_ context: CommandContext) throws(CommandError) {
        try runner.run(context)
    }
}
