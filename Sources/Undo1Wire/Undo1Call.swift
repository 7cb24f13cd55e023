public import DBus
public import Undo1
public import UndoCore

/// The method calls of the contract, built as messages: the one place a
/// client spells a member's name and arguments. Each is an unsent message
/// to undod (`Undo1.busName`, or the `destination` given: a benchmark's
/// stand-in beside undod on one bus), but `subscribe`'s, which goes to the
/// owner named, so that a subscription never reaches an undod started later.
public enum Undo1Call {
    /// `Manager.Register(app_id, options)`.
    public static func register(appId: String, options: RegistrationOptions = RegistrationOptions(),
                                to destination: String = Undo1.busName) throws(DBusError) -> Message {
        try manager("Register", [.string(appId), .vardict(options.values)], destination)
    }

    /// `Manager.UndoFocused` or `RedoFocused`.
    public static func applyFocused(_ direction: Direction, to destination: String = Undo1.busName) throws(DBusError) -> Message {
        try manager(direction == .undo ? "UndoFocused" : "RedoFocused", [], destination)
    }

    /// `Manager.Subscribe`, to the undod whose unique name is `owner`: the
    /// stacks' signals, while the caller stays on the bus.
    public static func subscribe(owner: String) throws(DBusError) -> Message {
        try manager("Subscribe", [], owner)
    }

    /// `Manager.SetFocus(stack)`.
    public static func setFocus(_ stack: StackPath) throws(DBusError) -> Message {
        try manager("SetFocus", [.objectPath(stack.path)])
    }

    /// `Manager.Forget(stack)`.
    public static func forget(_ stack: StackPath) throws(DBusError) -> Message {
        try manager("Forget", [.objectPath(stack.path)])
    }

    /// `Stack.Push(name, undo, redo, hints)`.
    public static func push(_ stack: String, name: String, undo: [UInt8], redo: [UInt8],
                            hints: PushHints = PushHints(), to destination: String = Undo1.busName) throws(DBusError) -> Message {
        try onStack(stack, "Push", [.string(name), .bytes(undo), .bytes(redo), .vardict(hints.values)], destination)
    }

    /// `Stack.PushGroup(name, actions, hints)`; `actions` in the order they were done.
    public static func pushGroup(_ stack: String, name: String, actions: [(undo: [UInt8], redo: [UInt8])],
                                 hints: PushHints = PushHints()) throws(DBusError) -> Message {
        let pairs = DBusValue.array(element: "(ayay)", actions.map { .structure([.bytes($0.undo), .bytes($0.redo)]) })
        return try onStack(stack, "PushGroup", [.string(name), pairs, .vardict(hints.values)])
    }

    /// `Stack.Undo` or `Stack.Redo`.
    public static func apply(_ direction: Direction, on stack: String) throws(DBusError) -> Message {
        try onStack(stack, direction == .undo ? "Undo" : "Redo", [])
    }

    /// A Stack method without arguments: `SetClean`, `Activate`, `Deactivate`, `Clear`, `History`.
    public static func stack(_ stack: String, _ member: StackMember) throws(DBusError) -> Message {
        try onStack(stack, member.rawValue, [])
    }

    /// `Stack.Close(discard)`.
    public static func close(_ stack: String, discard: Bool) throws(DBusError) -> Message {
        try onStack(stack, "Close", [.bool(discard)])
    }

    /// `Properties.GetAll` of the stack interface on `stack`, or of the
    /// manager interface when `stack` is nil.
    public static func properties(of stack: String?) throws(DBusError) -> Message {
        try Message.methodCall(destination: Undo1.busName, path: stack ?? Undo1.managerPath,
                               interface: Undo1.propertiesInterface, member: "GetAll",
                               arguments: [.string(stack == nil ? Undo1.managerInterface : Undo1.stackInterface)])
    }

    /// `ObjectManager.GetManagedObjects` on the manager: every stack and its properties.
    public static func managedObjects() throws(DBusError) -> Message {
        try Message.methodCall(destination: Undo1.busName, path: Undo1.managerPath,
                               interface: Undo1.objectManagerInterface, member: "GetManagedObjects")
    }

    /// `Client.Apply(stack, group, direction, payloads)` to the application
    /// `owner` (a unique name): what undod sends to have a group applied.
    public static func applyInClient(_ owner: String, _ arguments: ApplyArguments) throws(DBusError) -> Message {
        try Message.methodCall(destination: owner, path: Undo1.clientPath, interface: Undo1.clientInterface,
                               member: "Apply", arguments: arguments.values)
    }

    /// `Manager.ReportFocus(pid, app_id, sandbox_app_id)`: a compositor's report.
    public static func reportFocus(pid: UInt32, appId: String, sandboxAppId: String = "") throws(DBusError) -> Message {
        try manager("ReportFocus", [.uint32(pid), .string(appId), .string(sandboxAppId)])
    }

    /// `org.freedesktop.DBus.GetNameOwner(org.undod.Undo1)`, to the bus:
    /// which connection is undod now.
    public static func nameOwner() throws(DBusError) -> Message {
        try Message.methodCall(destination: Undo1.busService, path: Undo1.busPath, interface: Undo1.busService,
                               member: "GetNameOwner", arguments: [.string(Undo1.busName)])
    }

    /// The Stack methods that take no arguments and only say done.
    public enum StackMember: String, Sendable {
        /// `SetClean`.
        case setClean = "SetClean"
        /// `Activate`.
        case activate = "Activate"
        /// `Deactivate`.
        case deactivate = "Deactivate"
        /// `Clear`.
        case clear = "Clear"
        /// `History`.
        case history = "History"
    }

    private static func manager(_ member: String, _ arguments: [DBusValue],
                                _ destination: String = Undo1.busName) throws(DBusError) -> Message {
        try Message.methodCall(destination: destination, path: Undo1.managerPath, interface: Undo1.managerInterface,
                               member: member, arguments: arguments)
    }

    private static func onStack(_ stack: String, _ member: String, _ arguments: [DBusValue],
                                _ destination: String = Undo1.busName) throws(DBusError) -> Message {
        try Message.methodCall(destination: destination, path: stack, interface: Undo1.stackInterface,
                               member: member, arguments: arguments)
    }
}
