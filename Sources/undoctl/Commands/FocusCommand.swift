/// `undoctl focus TARGET`: `SetFocus`.
struct FocusCommand: Command {
    static let name = "focus"
    static let summary = "give TARGET the focus, so that undo without TARGET acts on it"
    static let usage = "TARGET"
    static let discussion = """
        Pins the focus to TARGET, so that `undoctl undo`, the global key and \
        SIGUSR1 act on it, until its application or another one becomes active. \
        A detached stack, or one whose application opted out of the global \
        trigger, cannot have the focus.
        """
    static let options: [OptionSpec] = []
    static let takesTarget = true
    static let examples = [
        Example("undoctl focus org.example.Editor:", "make Text Editor the target of the undo key"),
    ]

    /// The stack to focus.
    let target: String

    init(_ arguments: ParsedArguments) throws(CommandError) {
        target = try arguments.requiredTarget(of: Self.name)
    }

    func run(_ context: CommandContext) throws(CommandError) {
        try context.act(on: target, focusing: true, { client, path throws(CommandError) in try client.setFocus(path) },
                        saying: { "Focused \($0)" })
    }
}
