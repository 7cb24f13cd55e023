public import DBus
public import Foundation
public import Loop

/// A private bus with a real undod on it (unless told otherwise), a loop
/// to drive clients, a watcher connection that records signals, and the
/// test's apps: what every suite that talks to undod stands on (undoctl's
/// tests add its runs, `DaemonFixture+Undoctl`).
public final class DaemonFixture {
    public let bus: TestBus
    public let loop = EventLoop()
    public let watcher: Connection
    /// undod; nil only where the fixture was made without it, or a test
    /// stopped it and starts another.
    public var daemon: DaemonProcess!
    private var apps: [TestApp] = []

    /// The environment undod runs with (beyond the test's own, minus any display).
    public let environment: [String: String]

    /// With `daemon` false, the bus alone (undod is not running).
    /// `busRelease`: the bus of that Debian's root, in a pid namespace of its own (`TestBus`).
    public init(daemon startDaemon: Bool = true, config: String = "", extraArguments: [String] = [],
                wrapper: [String] = [], environment: [String: String] = [:], services: URL? = nil,
                busOutgoingLimit: Int = 1_000_000_000, busRelease: DesktopRelease? = nil) throws {
        bus = try TestBus(services: services, maxOutgoingBytes: busOutgoingLimit, release: busRelease)
        watcher = try Connection(address: bus.address, loop: loop)
        self.environment = environment
        if startDaemon {
            daemon = try DaemonProcess(bus: bus, loop: loop, watcher: watcher, config: config,
                                       extraArguments: extraArguments, wrapper: wrapper, environment: environment)
        }
    }

    /// Stops undod (SIGTERM, or SIGKILL when `crash`) and starts a new one on
    /// the same bus and state directory (under `wrapper`, as `DaemonProcess`
    /// takes one).
    public func restart(crash: Bool = false, config: String? = nil, wrapper: [String] = []) throws {
        if crash {
            daemon.crash(loop: loop, watcher: watcher)
        } else {
            daemon.signal(SIGTERM)
            guard daemon.waitForExit(loop: loop) == 0 else {
                throw HarnessError("undod did not stop cleanly: \(daemon.log)")
            }
        }
        let text = try config ?? String(contentsOf: daemon.configFile, encoding: .utf8)
        daemon = try DaemonProcess(bus: bus, loop: loop, watcher: watcher, config: text,
                                   stateDirectory: daemon.stateDirectory, wrapper: wrapper, environment: environment)
    }

    deinit {
        for app in apps { app.quit() }
        watcher.close()
        daemon?.stop()
        bus.stop()
    }

    /// A new application connection.
    public func app() throws -> TestApp {
        let app = try TestApp(address: bus.address, loop: loop)
        apps.append(app)
        return app
    }

    /// An app that registered `appId` (with `title` and `document` when
    /// given) and pushed `names` in order.
    @discardableResult
    public func app(_ appId: String, title: String? = nil, document: String? = nil, pushing names: [String] = [],
                    options: [String: DBusValue] = [:]) throws -> TestApp {
        let app = try app()
        var options = options
        if let title { options["title"] = .string(title) }
        if let document { options["document"] = .string(document) }
        try app.register(appId, options)
        for (index, name) in names.enumerated() {
            try app.push(name, undo: [UInt8(index), 0xAA], redo: [UInt8(index), 0xBB])
        }
        return app
    }

    /// Runs the loop until `condition` holds (at most `timeout` ms).
    @discardableResult
    public func wait(timeout: Int = 10_000, until condition: () -> Bool) -> Bool {
        loop.run(until: condition, timeoutMilliseconds: TestTime.milliseconds(timeout))
    }

    /// Runs the loop until at least `count` lines of undod's log carry
    /// `key` (each holding `value`, when given), at most `timeout` ms.
    public func waitForLogKey(_ key: String, holding value: String? = nil, count: Int = 1, timeout: Int = 10_000) -> Bool {
        wait(timeout: timeout) { daemon.logKeyCount(key, holding: value) >= count }
    }

    /// Records every signal undod emits, in order, from now on; with
    /// `subscribe`, first asks undod for the stacks' signals (`Subscribe`).
    public func recordSignals(subscribe: Bool = true) throws -> SignalLog {
        let log = SignalLog()
        watcher.subscribe(SignalMatch(sender: nil, path: nil, interface: nil, member: nil)) { message in
            guard message.sender != "org.freedesktop.DBus" else { return }
            log.entries.append((message.path ?? "", message.interface ?? "", message.member ?? "", message.arguments))
        }
        try ping()
        if subscribe { _ = try manager("Subscribe") }
        return log
    }

    /// A round trip through the bus: every match added before it is in force.
    public func ping() throws {
        _ = try watcher.callAndWait(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                    interface: "org.freedesktop.DBus.Peer", member: "Ping")
    }

    /// Calls a Manager method from the watcher (a third party).
    public func manager(_ member: String, _ arguments: [DBusValue] = []) throws(DBusError) -> [DBusValue] {
        try watcher.callAndWait(destination: "org.undod.Undo1", path: "/org/undod/Undo1",
                                interface: "org.undod.Undo1.Manager", member: member, arguments: arguments)
    }

    /// Calls a Stack method from the watcher (a third party).
    public func stack(_ path: String, _ member: String, _ arguments: [DBusValue] = []) throws(DBusError) -> [DBusValue] {
        try watcher.callAndWait(destination: "org.undod.Undo1", path: path, interface: "org.undod.Undo1.Stack",
                                member: member, arguments: arguments)
    }

    /// A Stack property, read by the watcher.
    public func stackProperty(_ path: String, _ name: String) throws(DBusError) -> DBusValue? {
        try watcher.callAndWait(destination: "org.undod.Undo1", path: path,
                                interface: "org.freedesktop.DBus.Properties", member: "Get",
                                arguments: [.string("org.undod.Undo1.Stack"), .string(name)]).first?.variantValue
    }

    /// A Manager property.
    public func managerProperty(_ name: String) throws(DBusError) -> DBusValue? {
        try watcher.callAndWait(destination: "org.undod.Undo1", path: "/org/undod/Undo1",
                                interface: "org.freedesktop.DBus.Properties", member: "Get",
                                arguments: [.string("org.undod.Undo1.Manager"), .string(name)]).first?.variantValue
    }

    /// Makes `app` leave the bus and waits (at most 10 s) for undod to
    /// announce its stack detached.
    public func quit(_ app: TestApp) throws {
        var detached = false
        let path = app.stack
        let subscription = watcher.subscribe(SignalMatch(path: path, interface: "org.freedesktop.DBus.Properties",
                                                         member: "PropertiesChanged")) { message in
            if message.arguments.dropFirst().first?.stringDictionary?["Owner"] == .string("") { detached = true }
        }
        defer { watcher.unsubscribe(subscription) }
        try ping()
        // undod announces a stack's changes only to subscribers.
        _ = try manager("Subscribe")
        app.quit()
        guard wait(until: { detached }) else { throw HarnessError("undod did not announce \(path) detached") }
    }

    /// Sends a call and returns a box that fills when the answer comes.
    public func send(from connection: Connection, _ path: String, _ interface: String, _ member: String,
              _ arguments: [DBusValue] = []) throws -> Answer {
        let answer = Answer()
        let message = try Message.methodCall(destination: "org.undod.Undo1", path: path, interface: interface,
                                             member: member, arguments: arguments)
        connection.call(message, timeoutMilliseconds: 30_000) { answer.result = $0 }
        return answer
    }
}

/// Signals seen by the watcher.
public final class SignalLog {
    /// An empty log.
    public init() {}
    public var entries: [(path: String, interface: String, member: String, arguments: [DBusValue])] = []

    /// The arguments of every signal named `member`.
    public func arguments(of member: String) -> [[DBusValue]] {
        entries.filter { $0.member == member }.map(\.arguments)
    }

    /// Whether a PropertiesChanged from `path` announced `name` = `value`.
    public func announced(_ path: String, _ name: String, _ value: DBusValue) -> Bool {
        entries.contains {
            $0.path == path && $0.member == "PropertiesChanged"
                && $0.arguments.dropFirst().first?.stringDictionary?[name] == value
        }
    }
}

/// The answer to a call sent without waiting.
public final class Answer {
    /// No answer yet.
    public init() {}
    public var result: Result<Message, DBusError>?
    public var isDone: Bool { result != nil }
    public var values: [DBusValue]? { try? result?.get().arguments }
    public var error: DBusError? {
        if case .failure(let e) = result { e } else { nil }
    }
}

/// The undod error name `name`.
public func undodError(_ name: String) -> String { "org.undod.Undo1.Error.\(name)" }

/// The error a call threw, or nil.
public func errorOf(_ body: () throws(DBusError) -> Any) -> DBusError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}
