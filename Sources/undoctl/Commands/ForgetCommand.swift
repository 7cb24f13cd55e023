/// `undoctl forget TARGET`: `Forget`.
struct ForgetCommand: Command {
    static let name = "forget"
    static let summary = "delete a detached stack and its history"
    static let usage = "TARGET"
    static let discussion = """
        Deletes a detached stack (one whose application is no longer running) \
        with its whole history, from memory and disk. A stack whose application \
        is running cannot be forgotten this way: only the application may \
        delete it.
        """
    static let options: [OptionSpec] = []
    static let takesTarget = true
    static let examples = [
        Example("undoctl forget 7", "delete stack 7"),
        Example("undoctl forget org.example.Editor:notes.txt", "delete the stack of one document"),
    ]

    /// The stack to delete.
    let target: String

    init(_ arguments: ParsedArguments) throws(CommandError) {
        target = try arguments.requiredTarget(of: Self.name)
    }

    func run(_ context: CommandContext) throws(CommandError) {
        try context.act(on: target, focusing: false, { client, path throws(CommandError) in try client.forget(path) },
                        saying: { "Forgot \($0) and its history" })
    }
}
