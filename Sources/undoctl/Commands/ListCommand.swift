import JSONText
import ProcessEnvironment
import Loop
import Undo1

/// `undoctl list`: every stack, one line each.
struct ListCommand: Command {
    static let name = "list"
    static let summary = "list every stack, one line each"
    static let usage = "[-q]"
    static let discussion = """
        Lists every stack undod keeps, one line each: its number, the TARGET \
        that names it (its app id, or app_id:document where the app has \
        several stacks; app_id: is the one with no document), its title, \
        whether its application is running (live) or gone (detached), and the depth and next name of each side. * marks the \
        focused stack; lines are cut (…) to fit the terminal. Detached stacks keep their history until their \
        application registers again or `undoctl forget` deletes them.
        """
    static let options = [
        OptionSpec("quiet", ["-q", "--quiet"],
                   help: "print only each stack's TARGET, as the table shows it: one that names it alone"),
    ]
    static let examples = [
        Example("undoctl list", "every stack"),
        Example("undoctl list -q", "each stack's TARGET, one per line, for scripts and completion"),
        Example("undoctl --json list | jq -r '.stacks[] | select(.detached) | .number'",
                "the numbers of the detached stacks"),
    ]

    /// `-q`: TARGETs only.
    let quiet: Bool

    init(_ arguments: ParsedArguments) throws(CommandError) {
        try arguments.noPositionals(of: Self.name)
        quiet = arguments.has("quiet")
    }

    func run(_ context: CommandContext) throws(CommandError) {
        let client = try context.client()
        let stacks = try client.stacks()
        let focused = try client.managerState().focusedPath
        if context.json {
            Output.line(JSONValue.object([
                "stacks": .array(stacks.map { $0.json(focused: $0.path == focused) }),
                "focused_stack": focused.map(JSONValue.string) ?? .null,
            ]).text)
        } else if quiet {
            Output.lines(stacks.map { Format.safe(TargetResolver.target(naming: $0, among: stacks)) })
        } else if stacks.isEmpty {
            Output.line("No stacks: no application has one with undod now.")
        } else {
            var rows = [["", "#", "TARGET", "TITLE", "OWNER", "UNDO", "REDO"]]
            for stack in stacks {
                rows.append([
                    stack.path == focused ? "*" : "", String(stack.number),
                    Format.safe(TargetResolver.target(naming: stack, among: stacks)),
                    stack.displayTitle, stack.isDetached ? "detached" : "live",
                    Self.side(stack.undoName, stack.undoDepth), Self.side(stack.redoName, stack.redoDepth),
                ])
            }
            if let width = Output.width(columns: context.environment.value("COLUMNS")) {
                rows = Format.fitted(rows, into: width, shrinking: [[3: 8, 5: 8, 6: 8], [2: 12]])
            }
            let count = stacks.count == 1 ? "1 stack" : "\(stacks.count) stacks"
            Output.lines(Format.table(rows, rightAligned: [1])
                + ["", count + (focused == nil ? "; none has the focus." : "; * marks the focused one.")])
        }
    }

    private static func side(_ name: String, _ depth: UInt32) -> String {
        name.isEmpty ? "\(depth)" : "\(depth) \(Format.quoted(name))"
    }
}
