import JSONText
import Loop
import ProcessEnvironment
import Undo1

/// `undoctl status [TARGET]`, the default command: the focused stack (or
/// TARGET) at a glance — title, app, the next undo and redo, depths, and
/// whether the document is clean.
struct StatusCommand: Command {
    static let name = "status"
    static let summary = "show what undo and redo would do now (the default command)"
    static let usage = "[TARGET]"
    static let discussion = """
        Shows the focused stack, or TARGET: its title and app, the names of the \
        next undo and redo with how many steps each side holds, whether the \
        present state is the clean (saved) one, and whether an application owns \
        it; and, where the global undo key cannot work on this desktop, why and \
        the command that fixes it. With no stack focused it says so and shows \
        undod's state instead: how many stacks it keeps, the focus strategy, \
        and the key (exit 0; with --json, "stack" is null).
        """
    static let options: [OptionSpec] = []
    static let takesTarget = true
    static let examples = [
        Example("undoctl", "the focused stack (status is the default command)"),
        Example("undoctl status org.example.Editor:notes.txt", "one document's stack"),
        Example("undoctl --json status | jq -r .stack.undo_name", "the name of the next undo, for a status bar"),
    ]

    /// The stack asked for, or nil for the focused one.
    let target: String?

    init(_ arguments: ParsedArguments) throws(CommandError) {
        target = try arguments.optionalTarget(of: Self.name)
    }

    func run(_ context: CommandContext) throws(CommandError) {
        let client = try context.client()
        let manager = try client.managerState()
        let stack: StackInfo
        if let target {
            stack = try TargetResolver.resolve(target, among: client.stacks())
        } else {
            guard let focused = manager.focusedPath else {
                return try showDaemon(manager, stacks: client.stacks(), context)
            }
            stack = try client.stack(at: focused)
        }
        let focused = stack.path == manager.focusedPath
        if context.json {
            Output.line(JSONValue.object(["stack": stack.json(focused: focused), "daemon": manager.json]).text)
        } else {
            Output.lines(Self.describe(stack, focused: focused)
                + ["  " + Format.padded("Focus:", 10) + Self.strategy(manager.focusStrategy, in: context.environment)]
                + (manager.keyProblem.isEmpty ? [] : ["  " + Format.padded("Key:", 10) + Format.safe(manager.keyProblem)]))
        }
    }

    /// With no stack focused: undod's own state, and where to go from here.
    private func showDaemon(_ manager: ManagerProperties, stacks: [StackInfo], _ context: CommandContext) {
        if context.json {
            return Output.line(JSONValue.object(["stack": .null, "daemon": manager.json]).text)
        }
        let owned = stacks.filter { !$0.isDetached }.count
        let kept = stacks.isEmpty ? "none yet: an application that uses undod makes one"
            : "\(stacks.count) (\(owned) with their application running): `undoctl list` shows them, "
                + "`undoctl undo --last` undoes the change made last"
        Output.lines(["No stack has the focus: no window in front has undo history with undod.",
                      "  " + Format.padded("Stacks:", 10) + kept,
                      "  " + Format.padded("Focus:", 10) + Self.strategy(manager.focusStrategy, in: context.environment)]
                     + (manager.keyProblem.isEmpty ? [] : ["  " + Format.padded("Key:", 10) + Format.safe(manager.keyProblem)]))
    }

    /// The text of one stack's status.
    static func describe(_ stack: StackInfo, focused: Bool) -> [String] {
        var rows: [(String, String)] = [("App:", stack.appId)]
        if !stack.document.isEmpty { rows.append(("Document:", Format.safe(stack.document))) }
        rows.append(("Undo:", side(stack.undoName, stack.undoDepth)))
        rows.append(("Redo:", side(stack.redoName, stack.redoDepth)))
        rows.append(("State:", stack.clean ? "clean (as last saved)" : "modified"))
        rows.append(("Owner:", stack.isDetached ? "none (detached): " + Self.detachedHint
                                                : "\(stack.owner) (running)"))
        if !stack.globalTrigger { rows.append(("Trigger:", "off: only the app itself may undo")) }
        let limit = stack.limit == 0 ? "no step limit" : "up to \(stack.limit) steps"
        rows.append(("Kept:", "\(Format.size(stack.bytes)) of \(Format.size(stack.maxBytes)), \(limit)"
                        + (stack.persistent ? ", on disk" : ", in memory only")))
        let header = stack.label + (focused ? ", focused" : "")
        return [header] + rows.map { "  " + Format.padded($0.0, 10) + $0.1 }
    }

    /// The focus strategy in effect and what it means: where the global key
    /// and `undoctl undo` act, and under `recent` what would make undod see
    /// the window in front on this desktop (read from undoctl's own
    /// environment, which is the session's).
    static func strategy(_ name: String, in environment: Environment) -> String {
        switch name {
        case "x11": return "x11 (the application of the active X11 window)"
        case "sway":
            let socket = environment.nonEmpty("SWAYSOCK").map { ", IPC " + Format.safe($0) } ?? ""
            return "sway (the application of sway's focused view\(socket))"
        case "kwin": return "kwin (the application of the window KWin reports in front, through undod's KWin script)"
        case "gnome": return "gnome (the application of the window GNOME Shell reports in front, through undod's extension)"
        case "recent": return "recent, a guess (the application active last): undod sees no window here; "
            + whatWouldSee(in: environment)
        default: return name.isEmpty ? "unknown" : Format.safe(name)
        }
    }

    /// Under `recent`: what would let undod see the window in front.
    private static func whatWouldSee(in environment: Environment) -> String {
        let desktops = (environment.value("XDG_CURRENT_DESKTOP") ?? "").uppercased().split(separator: ":")
        if desktops.contains("GNOME") {
            return "install and enable the undod GNOME Shell extension (gnome-extensions enable undod@undod.org)"
        }
        if desktops.contains("KDE") {
            return "undod loads its KWin script when it starts under KDE; its log (journalctl --user -u undod) says why it did not"
        }
        if environment.nonEmpty("SWAYSOCK") != nil {
            return "undod was started without SWAYSOCK: import it (systemctl --user import-environment SWAYSOCK) "
                + "and send undod SIGHUP"
        }
        return "on sway, KDE and GNOME the compositor tells undod (see README, Desktops)"
    }

    /// What undo and redo of a detached stack need: the same words as
    /// undod's `NoOwner` refusal, which `undoctl undo` shows at once.
    static let detachedHint = "no running application to apply changes: "
        + "start the application again so that it registers the stack."

    private static func side(_ name: String, _ depth: UInt32) -> String {
        guard !name.isEmpty else { return "nothing" }
        return "\(Format.quoted(name)) (\(depth) \(depth == 1 ? "step" : "steps"))"
    }
}
