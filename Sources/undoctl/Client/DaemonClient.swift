import DBus

/// undoctl's one connection to undod: every call it makes, each answered
/// in Swift types, every failure already a `CommandError` with the right
/// exit status. Runs the loop while it waits, which is fine for a CLI.
final class DaemonClient {
    /// The daemon's well-known bus name.
    static let busName = "org.undod.Undo1"
    /// The manager object.
    static let managerPath = "/org/undod/Undo1"
    /// The manager's interface.
    static let managerInterface = "org.undod.Undo1.Manager"
    /// Each stack's interface.
    static let stackInterface = "org.undod.Undo1.Stack"
    /// The standard properties interface.
    static let propertiesInterface = "org.freedesktop.DBus.Properties"
    /// The standard object-manager interface.
    static let objectManagerInterface = "org.freedesktop.DBus.ObjectManager"

    /// How long an undo or redo may take: the daemon answers within its own
    /// `apply.timeout_ms` per queued request, so this only ends a hung daemon.
    static let applyTimeoutMilliseconds = 120_000
    /// How long any other call may take.
    static let callTimeoutMilliseconds = 25_000

    /// The loop the connection runs on.
    let loop: EventLoop
    /// The bus connection.
    let connection: Connection

    /// Connects to the bus at `address`, or to the session bus when nil.
    init(address: String?) throws(CommandError) {
        loop = EventLoop()
        do {
            if let address {
                connection = try Connection(address: address, loop: loop)
            } else {
                connection = try Connection.session(loop: loop)
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
    func managerState() throws(CommandError) -> ManagerState {
        let reply = try call(path: Self.managerPath, interface: Self.propertiesInterface, member: "GetAll",
                             arguments: [.string(Self.managerInterface)])
        return ManagerState(reply.first?.stringDictionary ?? [:])
    }

    /// Every stack, by number.
    func stacks() throws(CommandError) -> [StackInfo] {
        let reply = try call(path: Self.managerPath, interface: Self.objectManagerInterface,
                             member: "GetManagedObjects")
        return Self.stacks(inManagedObjects: reply.first)
    }

    /// The stacks in a `GetManagedObjects` answer (`a{oa{sa{sv}}}`), by number.
    static func stacks(inManagedObjects value: DBusValue?) -> [StackInfo] {
        guard case .dict(_, _, let entries)? = value else { return [] }
        return entries.compactMap { entry in
            guard let path = entry.key.string,
                  let properties = entry.value.stringDictionary?[stackInterface]?.stringDictionary else { return nil }
            return StackInfo(path: path, properties: properties)
        }.sorted { $0.number < $1.number }
    }

    /// One stack's present properties.
    func stack(at path: String) throws(CommandError) -> StackInfo {
        let reply = try call(path: path, interface: Self.propertiesInterface, member: "GetAll",
                             arguments: [.string(Self.stackInterface)])
        guard let stack = StackInfo(path: path, properties: reply.first?.stringDictionary ?? [:]) else {
            throw .refused("There is no stack at \(path): run `undoctl list` to see the stacks.")
        }
        return stack
    }

    /// Undoes or redoes once: on the stack at `path`, or on the focused stack
    /// when `path` is nil (`UndoFocused`/`RedoFocused`).
    func apply(_ direction: Direction, on path: String?) throws(CommandError) -> AppliedStep {
        if let path {
            let reply = try call(path: path, interface: Self.stackInterface, member: direction.stackMember,
                                 timeout: Self.applyTimeoutMilliseconds)
            return AppliedStep(stack: path, group: reply.first?.uint64 ?? 0,
                               name: reply.dropFirst().first?.string ?? "")
        }
        let reply = try call(path: Self.managerPath, interface: Self.managerInterface,
                             member: direction.focusedMember, timeout: Self.applyTimeoutMilliseconds)
        return AppliedStep(stack: reply.first?.string ?? "/", group: reply.dropFirst().first?.uint64 ?? 0,
                           name: reply.dropFirst(2).first?.string ?? "")
    }

    /// Both sides of a stack's history, top first.
    func history(of path: String) throws(CommandError) -> (undo: [HistoryItem], redo: [HistoryItem]) {
        let reply = try call(path: path, interface: Self.stackInterface, member: "History")
        let undo = reply.first?.elements?.compactMap(HistoryItem.init) ?? []
        let redo = reply.dropFirst().first?.elements?.compactMap(HistoryItem.init) ?? []
        return (undo, redo)
    }

    /// `SetFocus`.
    func setFocus(_ path: String) throws(CommandError) {
        _ = try call(path: Self.managerPath, interface: Self.managerInterface, member: "SetFocus",
                     arguments: [.objectPath(path)])
    }

    /// `Forget`.
    func forget(_ path: String) throws(CommandError) {
        _ = try call(path: Self.managerPath, interface: Self.managerInterface, member: "Forget",
                     arguments: [.objectPath(path)])
    }

    /// The unique name that owns `org.undod.Undo1` now.
    func daemonOwner() throws(CommandError) -> String {
        let reply = try call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                             interface: "org.freedesktop.DBus", member: "GetNameOwner",
                             arguments: [.string(Self.busName)])
        return reply.first?.string ?? ""
    }

    /// Checks that the daemon answers (starting it if the bus can activate
    /// it): `org.freedesktop.DBus.Peer.Ping`.
    func ping() throws(CommandError) {
        _ = try call(path: Self.managerPath, interface: "org.freedesktop.DBus.Peer", member: "Ping")
    }

    // MARK: Calls

    /// Calls a method of undod (or of `destination`) and waits for the answer.
    func call(destination: String = busName, path: String, interface: String, member: String,
              arguments: [DBusValue] = [], timeout: Int = callTimeoutMilliseconds) throws(CommandError) -> [DBusValue] {
        do {
            return try connection.callAndWait(destination: destination, path: path, interface: interface,
                                              member: member, arguments: arguments, timeoutMilliseconds: timeout)
        } catch {
            throw Self.commandError(error)
        }
    }

    /// The one place where D-Bus errors become exit statuses: a daemon that
    /// is missing or out of reach is 3, a refusal (any error undod answers) 1.
    static func commandError(_ error: DBusError) -> CommandError {
        let base = "org.freedesktop.DBus.Error."
        let text = error.message.isEmpty ? error.name : error.message
        let reason = Format.clause(text)
        switch error.name {
        case base + "ServiceUnknown", base + "NameHasNoOwner":
            return .unreachable("undod is not running on this bus (nothing owns \(busName)); "
                + "start it with `undod &` or `systemctl --user start undod`", errorName: error.name)
        case base + "NoReply", base + "Timeout", base + "TimedOut":
            return .unreachable("undod did not answer in time (\(reason)); check that it is running and responding",
                                errorName: error.name)
        case base + "NoServer", base + "Disconnected", base + "BadAddress", base + "FileNotFound",
             base + "AuthFailed", base + "NoNetwork", base + "IOError":
            return .unreachable("lost the bus (\(reason))", errorName: error.name)
        default:
            if error.name.hasPrefix(base + "Spawn.") {
                return .unreachable("the bus could not start undod (\(reason))", errorName: error.name)
            }
            return .refused(text, errorName: error.name)
        }
    }
}
