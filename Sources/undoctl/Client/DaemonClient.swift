import DBus
import Loop
import ProcessEnvironment
import Undo1
import Undo1Wire
import UndoCore

/// undoctl's one connection to undod: every call it makes, each answered
/// in Swift types, every failure already a `CommandError` with the right
/// exit status. Runs the loop while it waits, which is fine for a CLI.
final class DaemonClient {
    /// How long an undo or redo may take: the daemon answers within its own
    /// `apply.timeout_ms` per queued request, so this only ends a hung daemon.
    static let applyTimeoutMilliseconds = 120_000
    /// How long any other call may take.
    static let callTimeoutMilliseconds = 25_000
    /// When an undo or redo still unanswered is worth a word on a terminal.
    static let noticeAfterMilliseconds = 1_000

    /// The loop the connection runs on.
    let loop: EventLoop
    /// The bus connection.
    let connection: Connection

    /// Connects to the bus at `address`, or to `environment`'s session bus when nil.
    init(address: String?, environment: Environment) throws(CommandError) {
        loop = EventLoop()
        do {
            if let address {
                connection = try Connection(address: address, loop: loop)
            } else {
                connection = try Connection.session(loop: loop, environment: environment)
            }
        } catch {
            let which = address.map { "the bus at \(Format.quoted($0))" } ?? "the session bus"
            let reason = Format.clause(error.message.isEmpty ? error.name : error.message)
            throw .unreachable("cannot reach \(which) (\(reason)); check --address or DBUS_SESSION_BUS_ADDRESS")
        }
    }

    deinit {
        connection.close()
    }

    // MARK: Manager

    /// The manager's properties.
    func managerState() throws(CommandError) -> ManagerProperties {
        let reply = try send { () throws(DBusError) in try Undo1Call.properties(of: nil) }
        return ManagerProperties(reply.first?.stringDictionary ?? [:])
    }

    /// Every stack, by number.
    func stacks() throws(CommandError) -> [StackInfo] {
        let reply = try send { () throws(DBusError) in try Undo1Call.managedObjects() }
        return Self.stacks(inManagedObjects: reply.first)
    }

    /// The stacks in a `GetManagedObjects` answer (`a{oa{sa{sv}}}`), by number.
    static func stacks(inManagedObjects value: DBusValue?) -> [StackInfo] {
        StackProperties.all(inManagedObjects: value).map { StackInfo(stack: $0.0, properties: $0.1) }
    }

    /// One stack's present properties.
    func stack(at path: String) throws(CommandError) -> StackInfo {
        let reply = try send { () throws(DBusError) in try Undo1Call.properties(of: path) }
        guard let stack = StackInfo(path: path, properties: reply.first?.stringDictionary ?? [:]) else {
            throw .refused("There is no stack at \(path): run `undoctl list` to see the stacks.")
        }
        return stack
    }

    /// Undoes or redoes once: on the stack at `path`, or on the focused stack
    /// when `path` is nil (`UndoFocused`/`RedoFocused`).
    /// `stillWaiting`, when given, runs once if the answer has not come
    /// after `noticeAfterMilliseconds` (the app may be slow or hung).
    func apply(_ direction: Direction, on path: String?,
               stillWaiting: (() -> Void)? = nil) throws(CommandError) -> AppliedReply {
        let wire: Direction = direction == .undo ? .undo : .redo
        let notice = stillWaiting.map { loop.schedule(afterMilliseconds: Self.noticeAfterMilliseconds, handler: $0) }
        defer { if let notice { loop.remove(notice) } }
        let reply = try send(timeout: Self.applyTimeoutMilliseconds) { () throws(DBusError) in
            if let path { try Undo1Call.apply(wire, on: path) } else { try Undo1Call.applyFocused(wire) }
        }
        return AppliedReply(reply, stack: path) ?? AppliedReply(stack: path ?? "/", group: 0, name: "")
    }

    /// Both sides of a stack's history, top first.
    func history(of path: String) throws(CommandError) -> (undo: [HistoryItem], redo: [HistoryItem]) {
        let reply = try send { () throws(DBusError) in try Undo1Call.stack(path, .history) }
        return HistoryItem.sides(of: reply) ?? ([], [])
    }

    /// `SetFocus`.
    func setFocus(_ path: String) throws(CommandError) {
        _ = try send { () throws(DBusError) in try Undo1Call.setFocus(try Self.stackPath(path)) }
    }

    /// `Forget`.
    func forget(_ path: String) throws(CommandError) {
        _ = try send { () throws(DBusError) in try Undo1Call.forget(try Self.stackPath(path)) }
    }

    /// The unique name that owns `org.undod.Undo1` now.
    func daemonOwner() throws(CommandError) -> String {
        let reply = try send { () throws(DBusError) in try Undo1Call.nameOwner() }
        return reply.first?.string ?? ""
    }

    /// Checks that the daemon answers (starting it if the bus can activate
    /// it): `org.freedesktop.DBus.Peer.Ping`.
    func ping() throws(CommandError) {
        _ = try send { () throws(DBusError) in
            try Message.methodCall(destination: Undo1.busName, path: Undo1.managerPath,
                                   interface: "org.freedesktop.DBus.Peer", member: "Ping")
        }
    }

    // MARK: Calls

    /// Builds a call with `message` and waits for its answer.
    func send(timeout: Int = callTimeoutMilliseconds,
              _ message: () throws(DBusError) -> Message) throws(CommandError) -> [DBusValue] {
        do {
            return try connection.callAndWait(try message(), timeoutMilliseconds: timeout).arguments
        } catch {
            throw Self.commandError(error)
        }
    }

    /// A stack path TARGET resolution produced (always a stack's).
    private static func stackPath(_ path: String) throws(DBusError) -> StackPath {
        guard let stack = StackPath(path) else { throw DBusError.invalidArgs("\(path) is no stack path.") }
        return stack
    }
    /// The errors of a bus on which undod is not running (and cannot be started).
    static let notRunning: Set<String> = ["org.freedesktop.DBus.Error.ServiceUnknown",
                                          "org.freedesktop.DBus.Error.NameHasNoOwner"]

    /// The one place where D-Bus errors become exit statuses: a daemon that
    /// is missing or out of reach is 3, a refusal (any error undod answers) 1.
    static func commandError(_ error: DBusError) -> CommandError {
        let base = "org.freedesktop.DBus.Error."
        let text = error.message.isEmpty ? error.name : error.message
        let reason = Format.clause(text)
        switch error.name {
        case _ where notRunning.contains(error.name):
            return .unreachable("undod is not running on this bus (nothing owns \(Undo1.busName)); "
                + "start it with `undod &` or `systemctl --user start undod`", errorName: error.name)
        case base + "NoReply", base + "Timeout", base + "TimedOut":
            return .unreachable("undod did not answer in time (\(reason)); check that it is running and responding",
                                errorName: error.name)
        case base + "NoServer", base + "Disconnected", base + "BadAddress", base + "FileNotFound",
             base + "AuthFailed", base + "NoNetwork", base + "IOError":
            return .unreachable("lost the bus (\(reason))", errorName: error.name)
        default:
            if error.name.hasPrefix(base + "Spawn.") {
                // The bus says only how undod ended; undod's own sentence went to its log.
                return .unreachable("the bus could not start undod (\(reason)); undod's log says why: "
                    + "`journalctl --user -u undod -n 20`, or run `undod` in a terminal", errorName: error.name)
            }
            if error.name == Undo1ErrorName.noFocusedStack.rawValue {
                // The daemon's sentence (why), with where to find a stack to name.
                return CommandContext.noFocusedStack(saying: error.message.isEmpty ? nil : error.message)
            }
            return .refused(text, errorName: error.name)
        }
    }
}
