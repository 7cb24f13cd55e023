import JSONText
import Loop
import SystemClock
import Undo1
import UndoCore

/// `undoctl history [TARGET]`: both sides of a stack's history.
struct HistoryCommand: Command {
    static let name = "history"
    static let summary = "show both sides of a stack's history, next first"
    static let usage = "[TARGET]"
    static let discussion = """
        Shows what undo and redo would step through, each side next first: \
        each group's id, the time it was done (or last merged into), the size \
        of its undo and redo data, and its name. Only names, times and sizes \
        are shown; the data itself stays with undod and the application.
        """
    static let options: [OptionSpec] = []
    static let takesTarget = true
    static let examples = [
        Example("undoctl history", "the focused stack's history"),
        Example("undoctl history org.example.Editor:", "Text Editor's history"),
        Example("undoctl --json history 3 | jq -r '.undo[].name'", "the names of stack 3's undo side"),
    ]

    /// The stack asked for, or nil for the focused one.
    let target: String?

    init(_ arguments: ParsedArguments) throws(CommandError) {
        target = try arguments.optionalTarget(of: Self.name)
    }

    func run(_ context: CommandContext) throws(CommandError) {
        let client = try context.client()
        let stack = try context.stack(target)
        let history = try client.history(of: stack.path)
        if context.json {
            let focused = try client.managerState().focusedPath == stack.path
            Output.line(JSONValue.object([
                "stack": stack.json(focused: focused),
                "undo": .array(history.undo.map(\.json)), "redo": .array(history.redo.map(\.json)),
            ]).text)
            return
        }
        let now = SystemTime.wallMicroseconds
        func row(_ item: HistoryItem) -> [String] {
            ["  \(item.group)", Format.localTime(microseconds: item.time, now: now), Format.size(item.bytes),
             Format.quoted(item.name)]
        }
        // One table for both sides, so their columns line up.
        let table = Format.table(history.undo.map(row) + history.redo.map(row), rightAligned: [0, 2])
        let undoLines = Array(table.prefix(history.undo.count))
        let redoLines = Array(table.dropFirst(history.undo.count))
        var out = ["\(stack.label): \(history.undo.count) to undo, \(history.redo.count) to redo"]
        out += ["Undo, next first:"] + (undoLines.isEmpty ? ["  nothing to undo"] : undoLines)
        out += ["Redo, next first:"] + (redoLines.isEmpty ? ["  nothing to redo"] : redoLines)
        Output.lines(out)
    }
}
