import JSONText
import Loop
import ProcessEnvironment
import Undo1

/// What every command runs with: the global options and, once asked for,
/// the connection to undod.
final class CommandContext {
    /// `--json`: print JSON instead of text.
    let json: Bool
    /// `--address`: the bus to use instead of the session bus.
    let address: String?
    /// The environment undoctl was started in (the session bus, `COLUMNS`).
    let environment: Environment
    private var connected: DaemonClient?

    /// Makes a context from the global options and the environment.
    init(json: Bool, address: String?, environment: Environment) {
        self.json = json
        self.address = address
        self.environment = environment
    }

    /// The connection to undod, made on first use.
    func client() throws(CommandError) -> DaemonClient {
        if let connected { return connected }
        let client = try DaemonClient(address: address, environment: environment)
        connected = client
        return client
    }

    /// The stack `target` names, or the focused stack when `target` is nil;
    /// no focused stack is a refusal with the daemon's own wording.
    func stack(_ target: String?) throws(CommandError) -> StackInfo {
        let client = try client()
        guard let target else {
            guard let focused = try client.managerState().focusedPath else { throw Self.noFocusedStack }
            return try client.stack(at: focused)
        }
        return try TargetResolver.resolve(target, among: client.stacks())
    }

    /// What a command on one stack does (`focus`, `forget`): resolves
    /// `target`, asks undod with `call` (the client and the stack's path),
    /// then prints the stack as JSON (`focused` as the call leaves it) or
    /// the sentence `saying` makes of its label.
    func act(on target: String, focusing focused: Bool,
             _ call: (DaemonClient, String) throws(CommandError) -> Void,
             saying sentence: (String) -> String) throws(CommandError) {
        let client = try client()
        let stack = try stack(target)
        try call(client, stack.path)
        if json {
            Output.line(JSONValue.object(["stack": stack.json(focused: focused)]).text)
        } else {
            Output.line(sentence(stack.label))
        }
    }

    /// What undoctl says when a command needs the focused stack and none has
    /// the focus (the same sentence as the daemon's `NoFocusedStack`).
    static let noFocusedStack = noFocusedStack(saying: nil)

    /// The same, with the daemon's own sentence (which says why nothing is
    /// focused) when there is one, and what a shell user usually means: in
    /// a terminal, the terminal is the window in front and has no history.
    static func noFocusedStack(saying daemonSentence: String?) -> CommandError {
        var sentence = daemonSentence ?? "No stack has the focus: focus an application that uses undod, or name a stack."
        if sentence.hasSuffix(".") { sentence.removeLast() }
        return .refused(sentence + " (see `undoctl list`). From a terminal, `undoctl undo --last` (or `redo --last`) "
                        + "acts on the application changed last.", errorName: Undo1ErrorName.noFocusedStack.rawValue)
    }
}
