import UndoCore

/// `undoctl undo [TARGET] [-n N] [--last]`.
struct UndoCommand: Command {
    static let name = "undo"
    static let summary = "undo the last action of the focused stack, or of TARGET"
    static let usage = "[TARGET] [-n N] [--last]"
    static let discussion = """
        Asks the application that owns the stack to undo its last action (a \
        named group such as "Typing"), and prints what was undone: Undid \
        "Typing" in Text Editor. Without TARGET it acts on the focused stack, \
        as the global undo key does, so `undoctl undo` is what to bind to a key \
        in a window manager. Typed in a terminal, the focused stack is the \
        terminal's (it is the window in front), which has none: there --last \
        acts on the stack changed most recently instead (the newest last \
        action of any stack), which is usually what is meant; the stack is \
        chosen once, and -n repeats there. With -n N it \
        repeats, stopping at the first failure: what was done is printed, then \
        the reason, and the exit status is 1.
        """
    static let options = StepRunner.options
    static let takesTarget = true
    static let examples = [
        Example("undoctl undo", "undo in the focused application"),
        Example("undoctl undo --last", "from a terminal: undo the last change made in any application"),
        Example("undoctl undo org.example.Editor:", "undo the last action of Text Editor, focused or not"),
        Example("undoctl undo -n 3 org.example.Editor:notes.txt", "undo 3 steps in one document"),
    ]

    /// The steps to take.
    let runner: StepRunner

    init(_ arguments: ParsedArguments) throws(CommandError) {
        runner = try StepRunner(.undo, arguments, command: Self.name)
    }

    func run(_ context: CommandContext) throws(CommandError) {
        try runner.run(context)
    }
}
