import Loop
import SafeText

/// Serves the objects one connection exports: dispatches each incoming call
/// by path, interface and member, checks its signature, and implements the
/// standard `Introspectable`, `Properties` and `ObjectManager` interfaces
/// from the same `Interface` declarations (`Connection` itself answers `Peer`).
public final class ObjectServer {
    /// The connection whose calls this server answers.
    public let connection: Connection

    private var objects: [String: [Interface]] = [:]
    private var index = ObjectPathIndex()
    /// Introspection XML by interface declaration (`described`).
    private var descriptions: [String: String] = [:]
    private var managerPath: String?
    /// What each caller may read of the properties; nil: everything.
    public var readGate: (any ReadGate)?
    /// Each exported path's generation: a number no export had before (see
    /// `RoutedCall.generation`).
    private var generations: [String: Int] = [:]
    private var lastGeneration = 0

    /// Starts answering every method call that arrives on `connection`.
    public init(connection: Connection) {
        self.connection = connection
        connection.objectServer = self
    }

    // MARK: Exporting

    /// Makes `path` an `ObjectManager` for the objects below it.
    public func enableObjectManager(at path: String) {
        connection.loop.assertInLoop()
        managerPath = path
    }

    /// Exports an object with `interfaces` at `path` (replacing one that was
    /// there) and, unless `announce` is false, announces it at once with
    /// `InterfacesAdded` when a manager covers it.
    public func export(path: String, interfaces: [Interface], announce: Bool = true) {
        connection.loop.assertInLoop()
        if objects.updateValue(interfaces, forKey: path) == nil { index.added(path) }
        lastGeneration += 1
        generations[path] = lastGeneration
        if announce { announceAdded(path: path) }
    }

    /// Emits `InterfacesAdded` for the object at `path` as it is now (for a
    /// caller that sends its announcements later).
    public func announceAdded(path: String) {
        guard let managerPath, isBelow(path, managerPath), objects[path] != nil else { return }
        emitSignal(path: managerPath, interface: StandardInterface.objectManager, member: "InterfacesAdded",
                   arguments: [.objectPath(path), interfacesAndProperties(of: path)])
    }

    /// Removes the object at `path` and, unless `announce` is false, announces
    /// it at once with `InterfacesRemoved`. Returns the interface names it had.
    @discardableResult
    public func unexport(path: String, announce: Bool = true) -> [String] {
        connection.loop.assertInLoop()
        guard let interfaces = objects.removeValue(forKey: path) else { return [] }
        index.removed(path)
        generations[path] = nil
        let names = interfaces.map(\.name) + StandardInterface.all
        if announce { announceRemoved(path: path, interfaces: names) }
        return names
    }

    /// Emits `InterfacesRemoved` for `path` and `interfaces`.
    public func announceRemoved(path: String, interfaces: [String]) {
        guard let managerPath, isBelow(path, managerPath) else { return }
        emitSignal(path: managerPath, interface: StandardInterface.objectManager, member: "InterfacesRemoved",
                   arguments: [.objectPath(path), .strings(interfaces)])
    }

    // MARK: Emitting

    /// Emits a signal from `path`. An invalid signal is a programming error
    /// of ours: it is dropped, never sent half-built.
    public func emitSignal(path: String, interface: String, member: String, arguments: [DBusValue] = []) {
        connection.loop.assertInLoop()
        guard let message = try? Message.signal(path: path, interface: interface, member: member,
                                                arguments: arguments) else { return }
        connection.send(message)
    }

    /// Emits `PropertiesChanged` for `interface` at `path` with `changed`,
    /// values the caller already has.
    public func propertiesChanged(path: String, interface: String, values changed: [String: DBusValue]) {
        guard !changed.isEmpty else { return }
        emitSignal(path: path, interface: StandardInterface.properties, member: "PropertiesChanged",
                   arguments: [.string(interface), .vardict(changed), .strings([])])
    }

    // MARK: Dispatch

    /// Serves a call now: matches it to its method (`resolve`) and runs
    /// the method's handler, or answers why none serves it.
    func dispatch(_ message: Message) {
        let call = MethodCall(message: message, connection: connection)
        // Almost every call is for a method of the object's own: served
        // here, the method borrowed where it is rather than copied into a
        // `Result` (each copy retains its closures and names).
        if let path = message.path, let member = message.member, let own = objects[path],
           let method = Self.method(member, interface: message.interface, in: own) {
            guard method.accepts(message.signature) else { return call.fail(Self.wrongSignature(method, message)) }
            return Self.serve(call, by: method)
        }
        switch resolve(message) {
        case .success(let method): Self.serve(call, by: method)
        case .failure(let error): call.fail(error)
        }
    }

    /// Matches a call to the method that serves it, by path, interface and
    /// member, and checks its signature: what serves it, or the refusal;
    /// for a call that waits in its connection's lane (`Connection.holdCall`).
    func route(_ message: Message) -> RoutedCall {
        let call = MethodCall(message: message, connection: connection)
        let generation = message.path.flatMap { generations[$0] }
        switch resolve(message) {
        case .failure(let error):
            return RoutedCall(serve: { call.fail(error) }, prepare: nil, generation: generation)
        case .success(let method):
            let prepare = method.preparation.map { preparation in
                { (ready: @escaping (@escaping () -> Void) -> Void) in preparation(call, ready) }
            }
            return RoutedCall(serve: { Self.serve(call, by: method) }, prepare: prepare, generation: generation)
        }
    }

    /// A call routed early (`RoutedCall.generation`), served now: by what
    /// it was routed to while its path's object is the one it found, else
    /// routed again.
    func serve(_ routed: RoutedCall, message: Message) {
        if message.path.flatMap({ generations[$0] }) == routed.generation { routed.serve() } else { dispatch(message) }
    }

    /// The method that serves `message`, or why none does.
    private func resolve(_ message: Message) -> Result<Interface.Method, DBusError> {
        guard let path = message.path, let member = message.member else {
            return .failure(.invalidArgs("A method call must name an object path and a member."))
        }
        // Almost every call is for a method of one of the object's own
        // interfaces: find it without building the standard interfaces, which
        // the full lookup below makes afresh for every call. Own interfaces
        // come first in that lookup too, so the answer is the same.
        if let own = objects[path], let method = Self.method(member, interface: message.interface, in: own) {
            return Self.checked(method, message)
        }
        let interfaces = servedInterfaces(at: path)
        guard !interfaces.isEmpty else {
            return .failure(DBusError(name: DBusError.Names.unknownObject,
                                      message: "No object is exported at \(CallerText.escaped(path)); check the path."))
        }
        let candidates: [Interface]
        if let name = message.interface {
            guard let interface = interfaces.first(where: { $0.name == name }) else {
                return .failure(DBusError(name: DBusError.Names.unknownInterface, message:
                    "The object at \(CallerText.escaped(path)) has no interface \(CallerText.quoted(name))."))
            }
            candidates = [interface]
        } else {
            candidates = interfaces
        }
        guard let method = candidates.lazy.flatMap(\.methods).first(where: { $0.name == member }) else {
            let on = message.interface.map { "\($0)." } ?? ""
            return .failure(.unknownMethod("The object at \(CallerText.escaped(path)) has no method \(on)\(member)."))
        }
        return Self.checked(method, message)
    }

    /// The method `member` of the interface named `interface` (of any, when
    /// nil) among `interfaces`, searched in order.
    private static func method(_ member: String, interface: String?, in interfaces: [Interface]) -> Interface.Method? {
        for candidate in interfaces where interface == nil || candidate.name == interface {
            if let method = candidate.methods.first(where: { $0.name == member }) { return method }
        }
        return nil
    }

    /// `method` if the call's signature is one it takes.
    private static func checked(_ method: Interface.Method, _ message: Message) -> Result<Interface.Method, DBusError> {
        method.accepts(message.signature) ? .success(method) : .failure(wrongSignature(method, message))
    }

    /// The refusal of a call whose signature `method` does not take.
    private static func wrongSignature(_ method: Interface.Method, _ message: Message) -> DBusError {
        .invalidArgs("\(method.name) takes arguments of type (\(method.inputSignature)), not (\(message.signature)).")
    }

    /// Runs `method`'s handler on `call`, its arguments read first unless
    /// the method reads them in place.
    private static func serve(_ call: MethodCall, by method: Interface.Method) {
        guard method.readsArgumentsInPlace || call.decodeArguments() else {
            return call.fail(.invalidArgs("The arguments of this \(method.name) call cannot be read as "
                                          + "(\(method.inputSignature)): nothing was done; send it again as D-Bus's "
                                          + "specification lays it out."))
        }
        method.handler(call)
    }

    /// The interfaces an incoming call may reach at `path`: an exported
    /// object's own and the standard ones, or just `Introspectable` for a
    /// node that only leads to objects.
    private func servedInterfaces(at path: String) -> [Interface] {
        if let own = objects[path] {
            var all = own + [introspectable(path), properties(path), peer()]
            if path == managerPath { all.append(objectManager(path)) }
            return all
        }
        if objects.keys.contains(where: { isBelow($0, path) }) { return [introspectable(path), peer()] }
        return []
    }

    private func isBelow(_ path: String, _ ancestor: String) -> Bool {
        ancestor == "/" ? path != "/" : path.hasPrefix(ancestor + "/")
    }

    // MARK: Standard interfaces

    private func introspectable(_ path: String) -> Interface {
        Interface(StandardInterface.introspectable, methods: [
            .init("Introspect", outputs: [.init("xml_data", "s")]) { [unowned self] call in
                call.reply([.string(self.introspectionXML(path: path))])
            },
        ])
    }

    private func peer() -> Interface {
        // The connection answers these before our handlers see them; declared so that
        // introspection tells the truth.
        Interface(StandardInterface.peer, methods: [
            .init("Ping") { $0.reply() },
            .init("GetMachineId", outputs: [.init("machine_uuid", "s")]) { $0.reply([.string("")]) },
        ])
    }

    private func properties(_ path: String) -> Interface {
        Interface(StandardInterface.properties, methods: [
            .init("Get", inputs: [.init("interface_name", "s"), .init("property_name", "s")],
                  outputs: [.init("value", "v")]) { [unowned self] call in
                self.withView(for: call) { view in
                    call.answer { () throws(DBusError) in
                        let property = try self.property(path, call.arguments[0].string, call.arguments[1].string)
                        let interface = call.arguments[0].string ?? ""
                        guard let value = view(path, interface, [property.name: property.get()])[property.name] else {
                            throw DBusError(name: DBusError.Names.accessDenied,
                                            message: "The property \(property.name) of \(CallerText.escaped(path)) "
                                                + "is not for this caller to read.")
                        }
                        return [.variant(value)]
                    }
                }
            },
            .init("GetAll", inputs: [.init("interface_name", "s")],
                  outputs: [.init("properties", "a{sv}")]) { [unowned self] call in
                self.withView(for: call) { view in
                    call.answer { () throws(DBusError) in
                        let name = call.arguments[0].string ?? ""
                        guard let interface = self.allInterfaces(at: path).first(where: { $0.name == name }) else {
                            throw DBusError(name: DBusError.Names.unknownInterface,
                                            message: "The object at \(CallerText.escaped(path)) has no interface \(CallerText.quoted(name)).")
                        }
                        return [.vardict(view(path, name, Self.values(of: interface)))]
                    }
                }
            },
            .init("Set", inputs: [.init("interface_name", "s"), .init("property_name", "s"), .init("value", "v")]) {
                [unowned self] call in
                call.answer { () throws(DBusError) in
                    let property = try self.property(path, call.arguments[0].string, call.arguments[1].string)
                    throw DBusError(name: DBusError.Names.propertyReadOnly,
                                    message: "The property \(property.name) is read-only.")
                }
            },
        ], signals: [
            .init("PropertiesChanged", arguments: [
                .init("interface_name", "s"), .init("changed_properties", "a{sv}"),
                .init("invalidated_properties", "as"),
            ]),
        ])
    }

    private func objectManager(_ path: String) -> Interface {
        Interface(StandardInterface.objectManager, methods: [
            .init("GetManagedObjects", outputs: [.init("objects", "a{oa{sa{sv}}}")]) { [unowned self] call in
                self.withView(for: call) { view in
                    let entries = self.objects.keys.filter { self.isBelow($0, path) }.sorted().map {
                        DBusValue.DictEntry(.objectPath($0), self.interfacesAndProperties(of: $0, view: view))
                    }
                    call.reply([.dict(key: "o", value: "a{sa{sv}}", entries)])
                }
            },
        ], signals: [
            .init("InterfacesAdded", arguments: [
                .init("object_path", "o"), .init("interfaces_and_properties", "a{sa{sv}}"),
            ]),
            .init("InterfacesRemoved", arguments: [.init("object_path", "o"), .init("interfaces", "as")]),
        ])
    }

    private func allInterfaces(at path: String) -> [Interface] {
        objects[path] ?? []
    }

    private func property(_ path: String, _ interface: String?, _ name: String?) throws(DBusError) -> Interface.Property {
        guard let found = allInterfaces(at: path).first(where: { $0.name == interface }) else {
            throw DBusError(name: DBusError.Names.unknownInterface,
                            message: "The object at \(CallerText.escaped(path)) has no interface \(CallerText.quoted(interface ?? "")).")
        }
        guard let property = found.properties.first(where: { $0.name == name }) else {
            throw DBusError(name: DBusError.Names.unknownProperty,
                            message: "The interface \(found.name) has no property \(CallerText.quoted(name ?? "")).")
        }
        return property
    }

    private static func values(of interface: Interface) -> [String: DBusValue] {
        var values: [String: DBusValue] = [:]
        for property in interface.properties { values[property.name] = property.get() }
        return values
    }

    /// Runs `body` with what `call`'s sender may read (`readGate`).
    private func withView(for call: MethodCall, _ body: @escaping (PropertyView) -> Void) {
        guard let readGate else { return body { _, _, values in values } }
        readGate.view(for: call.sender, then: body)
    }

    /// Every interface of `path` with its properties, as `view` lets them be read.
    private func interfacesAndProperties(of path: String,
                                         view: PropertyView = { _, _, values in values }) -> DBusValue {
        let own = allInterfaces(at: path).map {
            DBusValue.DictEntry(.string($0.name), .vardict(view(path, $0.name, Self.values(of: $0))))
        }
        let standard = StandardInterface.all.map { DBusValue.DictEntry(.string($0), .vardict([:])) }
        return .dict(key: "s", value: "a{sv}", own + standard)
    }

    // MARK: Introspection

    /// The introspection document of `path`: its interfaces, the standard
    /// ones, and its child nodes.
    public func introspectionXML(path: String) -> String {
        var xml = IntrospectionXML.header + "<node>\n"
        for interface in servedInterfaces(at: path) { xml += described(interface) }
        for child in childNodes(of: path) { xml += "  <node name=\"\(child)\"/>\n" }
        return xml + "</node>\n"
    }

    /// An interface's introspection XML, written once per declaration: every
    /// stack has the same interfaces, and dbus-python introspects an object
    /// each time a client makes a proxy for it.
    private func described(_ interface: Interface) -> String {
        let key = interface.name + "|" + interface.methods.map(\.name).joined(separator: ",") + "|"
            + interface.signals.map(\.name).joined(separator: ",") + "|"
            + interface.properties.map(\.name).joined(separator: ",")
        if let xml = descriptions[key] { return xml }
        let xml = IntrospectionXML.describe(interface)
        descriptions[key] = xml
        return xml
    }

    private func childNodes(of path: String) -> [String] {
        index.childNodes(of: path)
    }
}

/// The names of the standard interfaces every exported object has.
public enum StandardInterface {
    /// `org.freedesktop.DBus.Introspectable`
    public static let introspectable = "org.freedesktop.DBus.Introspectable"
    /// `org.freedesktop.DBus.Properties`
    public static let properties = "org.freedesktop.DBus.Properties"
    /// `org.freedesktop.DBus.Peer`
    public static let peer = "org.freedesktop.DBus.Peer"
    /// `org.freedesktop.DBus.ObjectManager`
    public static let objectManager = "org.freedesktop.DBus.ObjectManager"
    /// The three every exported object carries.
    static let all = [introspectable, properties, peer]
}
