public import DBus
public import Loop
import Undo1
import Undo1Wire
import UndoCore

/// A desktop application as undod sees it: its own connection, a stack it
/// registers and pushes to, and the `org.undod.Undo1.Client` object whose
/// `Apply` it answers as the test chooses.
public final class TestApp {
    /// How `Apply` is answered.
    public enum Behaviour {
        /// Record the payloads and succeed.
        case apply
        /// Answer with this error.
        case fail(DBusError)
        /// Never answer.
        case hang
        /// Let the test answer.
        case custom((MethodCall) -> Void)
    }

    /// One `Apply` the app received.
    public struct Applied: Equatable {
        /// The stack path.
        public var stack: String
        /// The group id.
        public var group: UInt64
        /// `undo` or `redo`.
        public var direction: String
        /// The payloads, in the order given.
        public var payloads: [[UInt8]]

        /// Makes a record of one Apply.
        public init(stack: String, group: UInt64, direction: String, payloads: [[UInt8]]) {
            self.stack = stack
            self.group = group
            self.direction = direction
            self.payloads = payloads
        }
    }

    /// The app's bus connection.
    public let connection: Connection
    /// How the next `Apply` calls are answered.
    public var behaviour: Behaviour = .apply
    /// Every `Apply` received, in order.
    public private(set) var applied: [Applied] = []
    /// The stack registered last.
    public var stack = ""
    private let objects: ObjectServer

    /// Connects to the bus at `address` and exports the client object.
    public init(address: String, loop: EventLoop) throws(DBusError) {
        connection = try Connection(address: address, loop: loop)
        objects = ObjectServer(connection: connection)
        let client = Undo1Interfaces.client.binding(methods: [
            "Apply": { [unowned self] call in
                if let apply = ApplyArguments(call.arguments) {
                    self.applied.append(Applied(stack: apply.stack, group: apply.group,
                                                direction: apply.direction.rawValue, payloads: apply.payloads))
                }
                switch self.behaviour {
                case .apply: call.reply()
                case .fail(let error): call.fail(error)
                case .hang: break
                case .custom(let handler): handler(call)
                }
            },
        ], properties: [:])
        objects.export(path: Undo1.clientPath, interfaces: [client])
    }

    /// The app's unique name.
    public var name: String { connection.uniqueName }

    /// Calls a Manager method.
    public func manager(_ member: String, _ arguments: [DBusValue] = [],
                        timeout: Int = TestTime.milliseconds(15_000)) throws(DBusError) -> [DBusValue] {
        try connection.callAndWait(destination: Undo1.busName, path: Undo1.managerPath,
                                   interface: Undo1.managerInterface, member: member, arguments: arguments,
                                   timeoutMilliseconds: timeout)
    }

    /// Calls a Stack method on `path` (the app's own stack by default).
    public func call(_ member: String, _ arguments: [DBusValue] = [], on path: String? = nil,
                     timeout: Int = TestTime.milliseconds(15_000)) throws(DBusError) -> [DBusValue] {
        try connection.callAndWait(destination: Undo1.busName, path: path ?? stack,
                                   interface: Undo1.stackInterface, member: member, arguments: arguments,
                                   timeoutMilliseconds: timeout)
    }

    /// `Register`s and remembers the stack path.
    @discardableResult
    public func register(_ appId: String, _ options: [String: DBusValue] = [:]) throws(DBusError) -> String {
        let reply = try manager("Register", [.string(appId), .vardict(options)])
        stack = reply.first?.string ?? ""
        return stack
    }

    /// `Push`es one action; returns the group id.
    @discardableResult
    public func push(_ name: String, undo: [UInt8] = [1], redo: [UInt8] = [2],
                     hints: [String: DBusValue] = [:]) throws(DBusError) -> UInt64 {
        try call("Push", [.string(name), .bytes(undo), .bytes(redo), .vardict(hints)]).first?.uint64 ?? 0
    }

    /// Reads a property of the app's stack (or of `path`).
    public func property(_ name: String, on path: String? = nil) throws(DBusError) -> DBusValue? {
        try connection.callAndWait(destination: Undo1.busName, path: path ?? stack,
                                   interface: Undo1.propertiesInterface, member: "Get",
                                   arguments: [.string(Undo1.stackInterface), .string(name)])
            .first?.variantValue
    }

    /// Leaves the bus.
    public func quit() {
        connection.close()
    }
}
