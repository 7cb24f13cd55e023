/// `undoctl watch`: one line per event, as it happens, until interrupted.
struct WatchCommand: Command {
    static let name = "watch"
    static let summary = "print undo activity as it happens, until Ctrl-C"
    static let usage = ""
    static let discussion = """
        Prints the focus as it is, then one line per event as it happens: a \
        group pushed (or merged into the last one), an undo or redo applied, the \
        focus moving to another stack, a stack added or removed, and undod \
        stopping or starting again (watch follows it across restarts, and \
        waits for it when it is not running yet). Each line \
        is written at once, so it can feed a pipe or a status bar. Runs until \
        interrupted (Ctrl-C, SIGINT or SIGTERM), then exits 0. With --json, \
        each line is one JSON object (JSON lines).
        """
    static let options: [OptionSpec] = []
    static let examples = [
        Example("undoctl watch", "follow undo activity"),
        Example("undoctl --json watch | jq -r 'select(.event == \"focus\") | .stack.title // \"-\"'",
                "print the focused application's title whenever it changes"),
    ]

    init(_ arguments: ParsedArguments) throws(CommandError) {
        try arguments.noPositionals(of: Self.name)
    }

    func run(_ context: CommandContext) throws(CommandError) {
        try WatchSession(client: context.client(), json: context.json).run()
    }
}
