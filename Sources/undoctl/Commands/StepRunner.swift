#if canImport(Glibc)
import Glibc
#endif
import DBus
import FileUndo
import JSONText
import ProcessEnvironment
import Undo1
import UndoCore

/// What `undo` and `redo` share: read `[TARGET] [-n N]`, then undo or redo
/// N times, printing each step as it is done and stopping at the first
/// failure.
struct StepRunner {
    /// The options of `undo` and `redo`.
    static let options = [
        OptionSpec("count", ["-n", "--count"], value: "N",
                   help: "repeat N times (default 1), stopping at the first failure"),
        OptionSpec("last", ["--last"],
                   help: "act on the stack changed most recently instead of the focused one"),
    ]

    /// Undo or redo.
    let direction: Direction
    /// The stack asked for, or nil for the focused one.
    let target: String?
    /// `--last`: the stack changed most recently, instead of the focused one.
    let last: Bool
    /// How many steps.
    let count: Int

    /// Reads the arguments of `command`.
    init(_ direction: Direction, _ arguments: ParsedArguments, command: String) throws(CommandError) {
        self.direction = direction
        target = try arguments.optionalTarget(of: command)
        last = arguments.has("last")
        if last, let target {
            throw .usage("--last picks the stack itself: give it or a TARGET (\(Format.quoted(target))), not both",
                         command: command)
        }
        if let text = arguments.value("count") {
            guard let count = Int(text), count >= 1 else {
                throw .usage("-n needs a whole number of steps of at least 1, not \(Format.quoted(text))",
                             command: command)
            }
            self.count = count
        } else {
            count = 1
        }
    }

    /// Does the steps. Without a TARGET each step is `UndoFocused` (or
    /// `RedoFocused`), exactly like pressing the global key N times; with
    /// one, `Stack.Undo` (or `Redo`) on the stack it names.
    func run(_ context: CommandContext) throws(CommandError) {
        let client = try context.client()
        let path: String?
        if last {
            path = try lastChanged(client)
        } else if let target {
            path = try TargetResolver.resolve(target, among: client.stacks()).path
        } else {
            path = try shellStack(client, context)
        }
        var titles: [String: String] = [:]
        var done: [JSONValue] = []
        var failure: CommandError?
        for _ in 0..<count {
            let step: AppliedReply
            do {
                step = try client.apply(direction, on: path, stillWaiting: waitingNotice(client, path))
            } catch {
                failure = error
                break
            }
            if context.json {
                // The stack as this step left it (JSON readers get the new top names).
                let stack = try? client.stack(at: step.stack)
                let focused = (try? client.managerState().focusedPath) == step.stack
                done.append(step.json(stack: stack?.json(focused: focused) ?? .object(["path": .string(step.stack)])))
            } else {
                if titles[step.stack] == nil { titles[step.stack] = (try? client.stack(at: step.stack))?.displayTitle }
                let place = titles[step.stack] ?? "stack \(StackPath(step.stack).map { $0.number }.map(String.init) ?? step.stack)"
                Output.line("\(direction.pastTense) \(Format.quoted(step.name)) in \(place)")
            }
        }
        if context.json {
            Output.line(JSONValue.object([
                "direction": .string(direction.rawValue), "requested": .uint(UInt64(count)),
                "steps": .array(done), "error": failure?.json ?? .null,
            ]).text)
        }
        if let failure { throw failure }
    }

    /// `--last`: the stack changed most recently that has something to move
    /// this way, by time: for undo, the newest group on top of an undo side
    /// (the last push); for redo, the newest on top of a redo side (the
    /// group an `undo --last` just moved there).
    /// In a shell that loaded `undoctl shell-init` (it exports its pid as
    /// `UNDOD_SHELL_PID`) and runs undoctl itself: that shell's own stack,
    /// what `undo` without TARGET acts on there; nil elsewhere.
    private func shellStack(_ client: DaemonClient, _ context: CommandContext) throws(CommandError) -> String? {
        guard let text = context.environment.nonEmpty("UNDOD_SHELL_PID"), let pid = UInt32(text),
              pid == UInt32(getppid()), let session = ShellSession.of(pid: pid) else { return nil }
        guard let mine = try client.stacks().first(where: {
            $0.appId == ShellSession.appId && $0.document == session.document
        }) else {
            throw .refused("There is nothing to \(direction == .undo ? "undo" : "redo") in this shell: no command "
                + "of it was recorded (give a TARGET, or --last, to act on another stack).")
        }
        if mine.properties.owner.isEmpty {
            // The agent went away since this shell's last command (it was
            // stopped, or killed): started again by the bus, it takes the
            // stack back, and the undo goes ahead.
            _ = try? client.send {
                () throws(DBusError) in try Message.methodCall(destination: FilesBus.busName, path: FilesBus.path,
                                                               interface: FilesBus.interface, member: "Adopt",
                                                               arguments: [.uint32(pid)])
            }
        }
        return mine.path
    }

    private func lastChanged(_ client: DaemonClient) throws(CommandError) -> String {
        var newest: (path: String, time: Int64)?
        for stack in try client.stacks() where (direction == .undo ? stack.undoDepth : stack.redoDepth) > 0 {
            let sides = try client.history(of: stack.path)
            guard let top = (direction == .undo ? sides.undo : sides.redo).first else { continue }
            if newest.map({ top.time > $0.time }) ?? true { newest = (stack.path, top.time) }
        }
        guard let newest else {
            throw direction == .undo
                ? .refused("No stack has anything to undo.", errorName: Undo1ErrorName.nothingToUndo.rawValue)
                : .refused("No stack has anything to redo.", errorName: Undo1ErrorName.nothingToRedo.rawValue)
        }
        return newest.path
    }

    /// On a terminal: what to say when a step is slow to come back, naming
    /// the app that has to apply it (read before the step, so that nothing
    /// is asked of undod while the answer is awaited).
    private func waitingNotice(_ client: DaemonClient, _ path: String?) -> (() -> Void)? {
        guard isatty(2) != 0 else { return nil }
        let stackPath = path ?? (try? client.managerState().focusedPath) ?? nil
        guard let stackPath, let stack = try? client.stack(at: stackPath) else { return nil }
        let app = stack.title.isEmpty ? stack.displayTitle : "\(stack.displayTitle) (\(Format.safe(stack.appId)))"
        let verb = direction == .undo ? "undo" : "redo"
        return { Output.error("undoctl: waiting for \(app) to apply the \(verb)\u{2026}") }
    }
}
